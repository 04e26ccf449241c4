"""GPU memory and XLA settings (TensorFlow 2.x API, graph functions)."""
import tensorflow as tf

gpus = tf.config.experimental.list_physical_devices("GPU")
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[0], "GPU")
    print("using", gpus[0])

tf.config.optimizer.set_jit(True)


@tf.function(jit_compile=True)
def step(x):
    return x * 2.0


def build(model):
    model.compile(optimizer="adam", loss="mse", jit_compile=True)
    gpu_options = tf.compat.v1.GPUOptions(allow_growth=True, per_process_gpu_memory_fraction=0.5)
    with tf.xla.experimental.jit_scope():
        y = step(tf.ones([2]))
    if tf.test.is_gpu_available():
        print("gpu")
    return gpu_options, y
