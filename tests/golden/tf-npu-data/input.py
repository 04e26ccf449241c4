"""Input pipelines (TensorFlow 1.15)."""
import tensorflow as tf


def parse(record):
    return tf.io.parse_single_example(record, {"x": tf.io.FixedLenFeature([4], tf.float32)})


def train_input(files, batch_size):
    ds = tf.data.TFRecordDataset(files)
    ds = ds.map(parse).shuffle(10000).repeat()
    ds = ds.batch(batch_size)
    return ds.prefetch(1)


def eval_input(files, batch_size):
    ds = tf.data.TFRecordDataset(files)
    ds = ds.apply(tf.data.experimental.map_and_batch(parse, batch_size))
    padded = ds.padded_batch(batch_size, padded_shapes=[None], drop_remainder=False)
    return padded.batch(2, drop_remainder=True)


def queue_input(tensors):
    return tf.train.shuffle_batch(tensors, batch_size=32, capacity=1000, min_after_dequeue=100)
