"""A graph-mode training loop with explicit sessions (TensorFlow 1.15)."""
import tensorflow.compat.v1 as tf
from tensorflow.compat.v1 import keras

tf.disable_eager_execution()

x = tf.placeholder(tf.float32, [None, 4])
w = tf.Variable(tf.zeros([4, 1]))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1

with tf.Session(config=config) as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(10):
        sess.run(train_op, feed_dict={x: [[1.0, 2.0, 3.0, 4.0]]})

sess2 = tf.Session()
with tf.device("/gpu:0"):
    y = tf.identity(x)
keras.backend.clear_session()
