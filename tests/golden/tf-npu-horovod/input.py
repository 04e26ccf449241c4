"""Data-parallel training with Horovod (TensorFlow 1.15)."""
import tensorflow as tf
import horovod.tensorflow as hvd

hvd.init()

config = tf.ConfigProto()
config.gpu_options.visible_device_list = str(hvd.local_rank())

dataset = tf.data.TFRecordDataset(["train.tfrecord"])
dataset = dataset.shard(hvd.size(), hvd.rank())

loss = tf.Variable(1.0)
opt = tf.train.MomentumOptimizer(0.01 * hvd.size(), momentum=0.9)
opt = hvd.DistributedOptimizer(opt, compression=hvd.Compression.fp16)
global_step = tf.train.get_or_create_global_step()
train_op = opt.minimize(loss, global_step=global_step)

hooks = [hvd.BroadcastGlobalVariablesHook(0), tf.train.StopAtStepHook(last_step=1000)]
checkpoint_dir = "/tmp/ckpt" if hvd.rank() == 0 else None
with tf.train.MonitoredTrainingSession(checkpoint_dir=checkpoint_dir, hooks=hooks, config=config) as sess:
    while not sess.should_stop():
        sess.run(train_op)

strategy = tf.distribute.MirroredStrategy(devices=["/gpu:0", "/gpu:1"])
total = hvd.allreduce(loss)
