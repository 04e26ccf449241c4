"""A Keras model with TensorFlow 2.x idioms."""
import tensorflow as tf
from tensorflow import keras


def block(x, rate):
    x = keras.layers.Dense(128, activation=tf.nn.gelu)(x)
    x = tf.nn.dropout(x, rate)
    return tf.nn.dropout(x, rate=rate)


def make_dataset(x, y, batch_size):
    return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1024).batch(batch_size)


strategy = tf.distribute.MirroredStrategy()
keras.mixed_precision.set_global_policy("mixed_float16")
