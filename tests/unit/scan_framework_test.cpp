// scan's PyTorch -> MindSpore coverage (src/scan/framework.cpp) on small scripts written here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scan/scan.h"

namespace ferry::scan {
namespace {

const FrameworkUse* find(const std::vector<FrameworkUse>& uses, const std::string& name) {
  for (const FrameworkUse& u : uses)
    if (u.name == name) return &u;
  return nullptr;
}

TEST(ScanFramework, AliasesResolveToFullNames) {
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "import torch.nn.functional as F\n"
      "from torch import optim\n"
      "from torch.utils.data import DataLoader as DL\n"
      "class Net(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.fc = nn.Linear(4, 2)\n"
      "    def forward(self, x):\n"
      "        return F.relu(self.fc(x))\n"
      "opt = optim.SGD(Net().parameters(), lr=0.1)\n"
      "loader = DL([1, 2], batch_size=2)\n"
      "x = torch.zeros(3, dtype=torch.float32)\n";
  const std::vector<FrameworkUse> uses = framework_uses("net.py", src);
  const FrameworkUse* module = find(uses, "torch.nn.Module");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->status, "diff");
  EXPECT_EQ(module->mindspore, "mindspore.nn.Cell");
  EXPECT_EQ(module->line, 6u);
  ASSERT_NE(find(uses, "torch.nn.Linear"), nullptr);
  EXPECT_EQ(find(uses, "torch.nn.functional.relu")->status, "same");
  EXPECT_EQ(find(uses, "torch.optim.SGD")->mindspore, "mindspore.experimental.optim.SGD");
  EXPECT_EQ(find(uses, "torch.utils.data.DataLoader")->mindspore, "mindspore.dataset.GeneratorDataset");
  EXPECT_EQ(find(uses, "torch.zeros")->kind, "api");
  EXPECT_EQ(find(uses, "torch.float32")->mindspore, "mindspore.float32");
  // .parameters() is a method call that only the Module table knows
  const FrameworkUse* params = find(uses, "torch.nn.Module.parameters");
  ASSERT_NE(params, nullptr);
  EXPECT_EQ(params->kind, "method");
}

TEST(ScanFramework, UnmappedAndNotTorch) {
  const std::string src =
      "import numpy as np\n"
      "import torch\n"
      "# torch.cuda.is_available() in a comment does not count\n"
      "s = 'torch.no_grad()'\n"
      "a = np.zeros(3)\n"
      "names = ['a']\n"
      "names.append('b')\n"
      "with torch.no_grad():\n"
      "    pass\n"
      "dev = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
      "torch.distributed.ReduceOp.SUM\n";
  const std::vector<FrameworkUse> uses = framework_uses("u.py", src);
  ASSERT_EQ(uses.size(), 4u);
  EXPECT_EQ(uses[0].name, "torch.no_grad");
  EXPECT_EQ(uses[0].status, "unmapped");
  EXPECT_EQ(uses[0].line, 8u);
  EXPECT_EQ(uses[1].name, "torch.device");
  EXPECT_EQ(uses[2].name, "torch.cuda.is_available");
  EXPECT_EQ(uses[3].name, "torch.distributed.ReduceOp.SUM");  // no row: the whole chain
  EXPECT_TRUE(uses[3].mindspore.empty());
}

TEST(ScanFramework, TensorFlowUsesByCanonicalName) {
  // tf.compat.v1 and standalone keras are spelled canonically; a dataset's .repeat() is no tensor's
  const std::string src =
      "import tensorflow.compat.v1 as tf\n"
      "from keras import layers\n"
      "x = tf.placeholder(tf.float32, [None, 4])\n"
      "y = tf.reduce_sum(x, axis=1)\n"
      "d = layers.Dense(3)\n"
      "ds = ds.repeat()\n";
  const std::vector<FrameworkUse> uses = framework_uses("t.py", src);
  ASSERT_EQ(uses.size(), 4u);
  EXPECT_EQ(uses[0].name, "tf.placeholder");
  EXPECT_EQ(uses[0].status, "unmapped");
  EXPECT_EQ(uses[1].name, "tf.float32");
  EXPECT_EQ(uses[1].status, "same");
  EXPECT_EQ(uses[2].name, "tf.reduce_sum");
  EXPECT_EQ(uses[2].status, "diff");
  EXPECT_EQ(uses[2].mindspore, "mindspore.ops.sum");
  EXPECT_EQ(uses[3].name, "tf.keras.layers.Dense");
  EXPECT_EQ(uses[3].status, "unmapped");  // needs the input size: a row says unsupported
}

TEST(ScanFramework, NoTorchImportNoMethodUses) {
  // .view(...) and .sum() are only taken for tensors in a file that imports torch
  const std::vector<FrameworkUse> uses = framework_uses("plain.py", "x = y.view(3)\nz = x.sum()\n");
  EXPECT_TRUE(uses.empty());
}

TEST(ScanFramework, SchedulerStepIsNotTheOptimizers) {
  const std::string src =
      "import torch\n"
      "optimizer.step()\n"
      "scheduler.step()\n";
  const std::vector<FrameworkUse> uses = framework_uses("s.py", src);
  ASSERT_EQ(uses.size(), 2u);
  EXPECT_EQ(uses[0].name, "torch.optim.Optimizer.step");
  EXPECT_EQ(uses[0].status, "unmapped");
  EXPECT_EQ(uses[1].name, "torch.optim.lr_scheduler.LRScheduler.step");
  EXPECT_EQ(uses[1].status, "same");
}

TEST(ScanFramework, ModulesPathIsThePublicName) {
  const std::string src =
      "from torch.nn.modules.linear import Linear\n"
      "import torch.nn.modules.rnn as rnn\n"
      "from torch.utils.data.dataloader import DataLoader\n"
      "import torch\n"
      "a = Linear(2, 3)\n"
      "b = rnn.LSTM(2, 3)\n"
      "c = DataLoader(ds)\n"
      "d = torch.optim.adam.Adam(p)\n"
      "e = torch.optim.lr_scheduler.StepLR(o, 1)\n";
  const std::vector<FrameworkUse> uses = framework_uses("m.py", src);
  ASSERT_EQ(uses.size(), 5u);
  EXPECT_EQ(uses[0].name, "torch.nn.Linear");
  EXPECT_EQ(uses[1].name, "torch.nn.LSTM");
  EXPECT_EQ(uses[1].status, "diff");
  EXPECT_EQ(uses[2].name, "torch.utils.data.DataLoader");
  EXPECT_EQ(uses[3].name, "torch.optim.Adam");
  EXPECT_EQ(uses[4].name, "torch.optim.lr_scheduler.StepLR");
}

TEST(ScanFramework, CoverageTotalsAndEffort) {
  std::vector<FrameworkUse> uses = {
      {"a.py", 1, 1, "torch.zeros", "api", "same", "mindspore.mint.zeros"},
      {"a.py", 2, 1, "torch.nn.Module", "api", "diff", "mindspore.nn.Cell"},
      {"b.py", 1, 1, "torch.no_grad", "api", "unmapped", ""},
      {"b.py", 2, 1, "torch.no_grad", "api", "unmapped", ""},
  };
  const FrameworkCoverage c = framework_coverage(uses);
  EXPECT_EQ(c.uses, 4u);
  EXPECT_EQ(c.same, 1u);
  EXPECT_EQ(c.diff, 1u);
  EXPECT_EQ(c.unmapped, 2u);
  EXPECT_EQ(c.files, 2u);
  EXPECT_EQ(c.unmapped_names.at("torch.no_grad"), 2u);
  EXPECT_NEAR(c.effort.hours, 0.1 + 1.0 + 0.1, 1e-9);
  EXPECT_EQ(c.effort.level, "low");
}

}  // namespace
}  // namespace ferry::scan
