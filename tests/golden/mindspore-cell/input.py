import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBlock(nn.Module):
    """Two convolutions and a pooling step."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, 1, 1)
        self.bn = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, kernel_size=3, bias=False)
        self.pool = nn.MaxPool2d(2)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        x = F.relu(self.bn(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        return self.drop(x)


class Tagger(nn.Module):
    def __init__(self, vocab, dim, classes):
        super(Tagger, self).__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.norm = nn.LayerNorm((dim,), eps=1e-5)
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(2)])
        self.out = nn.Linear(dim, classes)

    def forward(self, tokens):
        h = self.norm(self.embed(tokens))
        for layer in self.layers:
            h = torch.tanh(layer(h))
        b, t, d = h.size()
        h = h.view(b * t, d).contiguous()
        return self.out(h).view(b, t, -1)


class DeepTagger(Tagger):
    def forward(self, tokens):
        return super().forward(tokens).permute(0, 2, 1)
