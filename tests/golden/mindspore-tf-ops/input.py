"""Tensor functions written with TensorFlow 2."""
import tensorflow as tf


def attention(q, k, v, mask):
    scores = tf.matmul(q, k, transpose_b=False) / tf.sqrt(tf.cast(tf.shape(k)[-1], tf.float32))
    scores = tf.maximum(scores, mask)
    weights = tf.nn.softmax(scores, axis=-1)
    return tf.matmul(weights, v)


def pool(x):
    s = tf.reduce_sum(x, axis=1, keepdims=True)
    m = tf.reduce_mean(x, axis=1)
    y = tf.concat([s, tf.expand_dims(m, 1)], axis=1)
    y = tf.reshape(y, [-1, 4])
    z = tf.transpose(y, perm=[1, 0])
    w = tf.transpose(y)
    return tf.nn.relu(z), tf.zeros([2, 2], dtype=tf.int32), tf.argmax(w), tf.one_hot([1, 2], 3)
