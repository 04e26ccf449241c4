"""Mixed precision and loss scaling (TensorFlow 1.15)."""
import tensorflow as tf
from npu_bridge.npu_init import *

opt = tf.train.AdamOptimizer(1e-4)
opt = tf.train.experimental.enable_mixed_precision_graph_rewrite(opt)
manager = ExponentialUpdateLossScaleManager(2 ** 32, 1000)
scaled = tf.contrib.mixed_precision.LossScaleOptimizer(opt, manager)
