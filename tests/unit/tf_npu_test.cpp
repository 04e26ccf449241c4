// The tf_npu target's tables: they read without problems for both TensorFlow majors, every NPU name a
// rename or wrap row writes is in rules/tf_npu/api.tsv, the args operations parse, and TensorFlow
// names are spelled canonically however they were imported.
#include <gtest/gtest.h>

#include <string>

#include "pyparse/imports.h"
#include "targets/tf_npu/tables.h"

namespace ferry::targets::tf_npu {
namespace {

TEST(TfNpuTables, ReadWithoutProblems) {
  for (int major : {1, 2}) {
    const Tables& t = Tables::builtin(major);
    for (const std::string& p : t.problems()) ADD_FAILURE() << "tf " << major << ": " << p;
    EXPECT_GT(t.rows().size(), 50u);
    ASSERT_NE(t.find("tf.nn.dropout"), nullptr);
  }
  // the positional of tf.nn.dropout is keep_prob in 1.x, rate in 2.x
  EXPECT_EQ(Tables::builtin(1).find("tf.nn.dropout")->ops.size(), 2u);
  EXPECT_EQ(Tables::builtin(2).find("tf.nn.dropout")->ops.size(), 3u);
}

TEST(TfNpuTables, EveryRenamedOrWrappedNameIsInTheAdapter) {
  for (int major : {1, 2}) {
    const Tables& t = Tables::builtin(major);
    for (const auto& [tf, r] : t.rows()) {
      if (r.action != Action::Rename && r.action != Action::Wrap) continue;
      const ApiEntry* e = t.api(r.npu);
      ASSERT_NE(e, nullptr) << r.npu << " (" << r.where << ")";
      if (r.action == Action::Wrap) {
        EXPECT_TRUE(e->takes(r.wrap_param)) << r.where;
      }
      for (const ArgOp& op : r.ops) {
        if (op.kind == ArgOp::Kind::Rename || op.kind == ArgOp::Kind::Add || op.kind == ArgOp::Kind::Set) {
          EXPECT_TRUE(e->takes(op.kind == ArgOp::Kind::Rename ? op.to : op.from)) << r.where;
        }
      }
    }
    ASSERT_NE(t.api("npu_bridge.npu_init"), nullptr);  // the import every converted file gets
  }
}

TEST(TfNpuTables, ArgOperations) {
  std::string error;
  const auto ops = parse_arg_ops(
      "rate=drop;@1=drop;+keep_prob=1.0 - ({rate|@1});drop_remainder:=True;@0:='/cpu:0';"
      "config%npu_config_proto.config_proto;@0->optimizer;a->b",
      &error);
  EXPECT_EQ(error, "");
  ASSERT_EQ(ops.size(), 8u);
  EXPECT_EQ(ops[0].kind, ArgOp::Kind::Drop);
  EXPECT_EQ(ops[1].kind, ArgOp::Kind::DropPositional);
  EXPECT_EQ(ops[2].kind, ArgOp::Kind::Add);
  EXPECT_EQ(ops[3].kind, ArgOp::Kind::Set);
  EXPECT_EQ(ops[4].kind, ArgOp::Kind::SetPositional);
  EXPECT_EQ(ops[5].kind, ArgOp::Kind::WrapKeyword);
  EXPECT_EQ(ops[5].func, "npu_config_proto");
  EXPECT_EQ(ops[5].param, "config_proto");
  EXPECT_EQ(ops[6].kind, ArgOp::Kind::Positional);
  EXPECT_EQ(ops[7].kind, ArgOp::Kind::Rename);
  (void)parse_arg_ops("nonsense!", &error);
  EXPECT_NE(error, "");
}

TEST(TfNpuNames, Canonical) {
  EXPECT_EQ(canonical("tensorflow.compat.v1.Session"), "tf.Session");
  EXPECT_EQ(canonical("tensorflow.nn.dropout"), "tf.nn.dropout");
  EXPECT_EQ(canonical("keras.layers.Dense"), "tf.keras.layers.Dense");
  EXPECT_EQ(canonical("tensorflow.python.keras.backend"), "tf.keras.backend");
  EXPECT_EQ(canonical("horovod.tensorflow.keras.callbacks"), "hvd.callbacks");
  EXPECT_EQ(canonical("horovod.tensorflow.rank"), "hvd.rank");
  EXPECT_EQ(canonical("tensorflowx.y"), "tensorflowx.y");
  EXPECT_EQ(pyparse::canonical_tensorflow_name("torch.nn"), "torch.nn");
}

}  // namespace
}  // namespace ferry::targets::tf_npu
