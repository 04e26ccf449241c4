"""A project whose own class has a batch() method: method rows leave that name alone in this file."""
import tensorflow as tf


class Loader:
    def __init__(self, items):
        self.items = items

    def batch(self, n):
        return [self.items[i:i + n] for i in range(0, len(self.items), n)]


def pipeline(loader, ds):
    groups = loader.batch(4)
    cfg = tf.ConfigProto()
    return ds.padded_batch(4, padded_shapes=[None]), groups, cfg
