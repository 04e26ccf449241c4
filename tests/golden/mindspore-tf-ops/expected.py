"""Tensor functions written with TensorFlow 2."""
import mindspore as ms
from mindspore import ops
import tensorflow as tf


def attention(q, k, v, mask):
    scores = tf.matmul(q, k, transpose_b=False) / ops.sqrt(tf.cast(tf.shape(k)[-1], ms.float32))
    scores = ops.maximum(scores, mask)
    weights = ops.softmax(scores, axis=-1)
    return ops.matmul(weights, v)


def pool(x):
    s = ops.sum(x, dim=1, keepdim=True)
    m = ops.mean(x, axis=1)
    y = ops.cat([s, ops.expand_dims(m, 1)], axis=1)
    y = ops.reshape(y, [-1, 4])
    z = ops.transpose(y, axes=[1, 0])
    w = tf.transpose(y)
    return ops.relu(z), ops.zeros([2, 2], dtype=ms.int32), tf.argmax(w), ops.one_hot([1, 2], 3)
