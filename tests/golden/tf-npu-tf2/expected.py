"""A Keras model with TensorFlow 2.x idioms."""
import tensorflow as tf
from npu_bridge.npu_init import *
from tensorflow import keras


def block(x, rate):
    x = keras.layers.Dense(128, activation=npu_unary_ops.gelu)(x)
    x = npu_ops.dropout(x, keep_prob=1.0 - (rate))
    return npu_ops.dropout(x, keep_prob=1.0 - (rate))


def make_dataset(x, y, batch_size):
    return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1024).batch(batch_size, drop_remainder=True)


strategy = npu_strategy.NPUStrategy()
keras.mixed_precision.set_global_policy("mixed_float16")
