"""Data-parallel training with Horovod (TensorFlow 1.15)."""
import tensorflow as tf
from npu_bridge.npu_init import *
import horovod.tensorflow as hvd


config = npu_config_proto(config_proto=tf.ConfigProto())

dataset = tf.data.TFRecordDataset(["train.tfrecord"])
dataset = dataset.shard(get_npu_rank_size(), get_npu_rank_id())

loss = tf.Variable(1.0)
opt = tf.train.MomentumOptimizer(0.01 * get_npu_rank_size(), momentum=0.9)
opt = npu_distributed_optimizer_wrapper(opt)
global_step = tf.train.get_or_create_global_step()
train_op = opt.minimize(loss, global_step=global_step)

hooks = [NPUBroadcastGlobalVariablesHook(0, int(os.getenv('RANK_ID', '0'))), tf.train.StopAtStepHook(last_step=1000)]
checkpoint_dir = "/tmp/ckpt" if get_npu_rank_id() == 0 else None
with tf.train.MonitoredTrainingSession(checkpoint_dir=checkpoint_dir, hooks=hooks, config=npu_config_proto(config_proto=config)) as sess:
    while not sess.should_stop():
        sess.run(train_op)

strategy = npu_strategy.NPUStrategy()
total = hvd.allreduce(loss)
