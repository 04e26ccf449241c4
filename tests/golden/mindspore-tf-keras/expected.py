"""A small Keras classifier, subclassed, with its loss and optimizer."""
from mindspore import nn, ops
from tensorflow import keras
from tensorflow.keras import layers


class Classifier(nn.Cell):
    def __init__(self, vocab, dim, classes):
        super().__init__()
        self.embed = nn.Embedding(vocab_size=vocab, embedding_size=dim)
        self.flatten = nn.Flatten()
        self.drop = nn.Dropout(p=0.1)
        self.act = nn.ReLU()
        self.out = layers.Dense(classes)

    def construct(self, x):
        h = self.act(self.flatten(self.embed(x)))
        return self.out(self.drop(h))


class Block(nn.Cell):
    def construct(self, x):
        return ops.relu(x) + x


model = Classifier(1000, 16, 10)
loss_fn = nn.CrossEntropyLoss()
mse = nn.MSELoss()
optimizer = keras.optimizers.Adam(learning_rate=1e-3)
probs = nn.Softmax()(ops.zeros([2, 10]))
