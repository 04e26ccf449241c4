"""A small Keras classifier, subclassed, with its loss and optimizer."""
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers


class Classifier(keras.Model):
    def __init__(self, vocab, dim, classes):
        super().__init__()
        self.embed = layers.Embedding(vocab, dim)
        self.flatten = layers.Flatten()
        self.drop = layers.Dropout(0.1)
        self.act = layers.ReLU()
        self.out = layers.Dense(classes)

    def call(self, x):
        h = self.act(self.flatten(self.embed(x)))
        return self.out(self.drop(h))


class Block(layers.Layer):
    def call(self, x):
        return tf.nn.relu(x) + x


model = Classifier(1000, 16, 10)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
mse = tf.keras.losses.MeanSquaredError()
optimizer = keras.optimizers.Adam(learning_rate=1e-3)
probs = layers.Softmax()(tf.zeros([2, 10]))
