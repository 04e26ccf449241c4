"""A transformer block's activations and dropout (TensorFlow 1.15)."""
import tensorflow as tf
from npu_bridge.npu_init import *
from npu_bridge.estimator.npu import npu_convert_dropout
from tensorflow import nn


def feed_forward(x, hidden, keep_prob, training):
    h = tf.layers.dense(x, hidden)
    h = npu_unary_ops.gelu(h)
    h = npu_ops.dropout(h, keep_prob)
    h = npu_ops.dropout(h, keep_prob=1.0 - (0.1))
    h = tf.nn.gelu(h, approximate=True)
    return tf.keras.layers.Dropout(0.1)(h, training=training)


def attention_probs(scores, dropout_prob):
    probs = tf.nn.softmax(scores, axis=-1)
    return npu_ops.dropout(probs, keep_prob=1.0 - dropout_prob)


def profile(graph):
    return tf.profiler.profile(graph)
