"""A Keras classifier trained in TensorFlow 1.15 graph mode."""
import numpy as np
import tensorflow as tf
from npu_bridge.npu_init import *
from npu_bridge.estimator.npu import npu_convert_dropout
from tensorflow import keras


def build_model():
    model = keras.Sequential([
        keras.layers.Dense(64, activation="relu", input_shape=(784,)),
        keras.layers.Dropout(0.2),
        keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    return model


def main():
    x = np.random.rand(256, 784).astype(np.float32)
    y = np.random.randint(0, 10, size=256)
    model = build_model()
    model.fit(x, y, batch_size=32, epochs=1)
    npu_clear_session()


if __name__ == "__main__":
    npu_keras_sess = set_keras_session_npu_config()
    tf.logging.set_verbosity(tf.logging.INFO)
    main()
    close_session(npu_keras_sess)
