from mindspore import nn, ops


class ConvBlock(nn.Cell):
    """Two convolutions and a pooling step."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=1, padding=1, pad_mode='pad', has_bias=True)
        self.bn = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, kernel_size=3, has_bias=False, pad_mode='pad')
        self.pool = nn.MaxPool2d(2, stride=2, pad_mode='pad')
        self.drop = nn.Dropout(p=0.1)

    def construct(self, x):
        x = ops.relu(self.bn(self.conv1(x)))
        x = self.pool(ops.relu(self.conv2(x)))
        return self.drop(x)


class Tagger(nn.Cell):
    def __init__(self, vocab, dim, classes):
        super(Tagger, self).__init__()
        self.embed = nn.Embedding(vocab_size=vocab, embedding_size=dim)
        self.norm = nn.LayerNorm((dim,), epsilon=1e-5, begin_norm_axis=-1, begin_params_axis=-1)
        self.layers = nn.CellList([nn.Dense(dim, dim) for _ in range(2)])
        self.out = nn.Dense(dim, classes)

    def construct(self, tokens):
        h = self.norm(self.embed(tokens))
        for layer in self.layers:
            h = ops.tanh(layer(h))
        b, t, d = h.shape
        h = h.view(b * t, d)
        return self.out(h).view(b, t, -1)


class DeepTagger(Tagger):
    def construct(self, tokens):
        return super().construct(tokens).permute(0, 2, 1)
