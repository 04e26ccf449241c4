"""A linear model trained with an Estimator (TensorFlow 1.15)."""
import numpy as np
import tensorflow as tf


def model_fn(features, labels, mode, params):
    logits = tf.layers.dense(features["x"], 10)
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    optimizer = tf.train.AdamOptimizer(learning_rate=params["lr"])
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=train_op)


def input_fn(batch_size):
    x = np.random.rand(1000, 784).astype(np.float32)
    y = np.random.randint(0, 10, size=1000)
    ds = tf.data.Dataset.from_tensor_slices(({"x": x}, y))
    return ds.shuffle(1000).repeat().batch(batch_size)


def main():
    session_config = tf.ConfigProto(allow_soft_placement=True)
    run_config = tf.estimator.RunConfig(model_dir="/tmp/model", save_checkpoints_steps=100,
                                        session_config=session_config)
    est = tf.estimator.Estimator(model_fn=model_fn, config=run_config, params={"lr": 1e-3})
    est.train(input_fn=lambda: input_fn(32), max_steps=1000)
    canned = tf.estimator.DNNClassifier(hidden_units=[64], feature_columns=[], n_classes=10)
    tpu_est = tf.compat.v1.estimator.tpu.TPUEstimator(model_fn=model_fn, use_tpu=True, train_batch_size=64)
    return est, canned, tpu_est


if __name__ == "__main__":
    main()
