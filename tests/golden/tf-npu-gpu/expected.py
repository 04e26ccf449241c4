"""GPU memory and XLA settings (TensorFlow 2.x API, graph functions)."""
import tensorflow as tf
from npu_bridge.npu_init import *

gpus = tf.config.experimental.list_physical_devices("GPU")
for gpu in gpus:
    pass
if gpus:
    print("using", gpus[0])



@tf.function()
def step(x):
    return x * 2.0


def build(model):
    model.compile(optimizer="adam", loss="mse")
    gpu_options = tf.compat.v1.GPUOptions()
    with tf.xla.experimental.jit_scope(compile_ops=False):
        y = step(tf.ones([2]))
    if tf.test.is_gpu_available():
        print("gpu")
    return gpu_options, y
