# Reference outputs of the layers package's tests, from PyTorch 1.13 (CPU,
# float64). Run with Debian's python: /usr/bin/python3 torch_layers.py
# It prints Go constants that layers_test.go holds. Every input and weight
# is seq(n, a, b)[i] = sin(a*i + b), the same function as the tests' seq,
# laid out in PyTorch's layouts; the tests permute the weights into the
# layouts sdgo's ops take.
import math
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)


def seq(shape, a, b):
    n = 1
    for d in shape:
        n *= d
    return torch.tensor([math.sin(a * i + b) for i in range(n)]).reshape(shape)


def show(name, t):
    vals = ", ".join("%.12g" % v for v in t.detach().reshape(-1).tolist())
    print("\t%s = []float64{%s} // %s" % (name, vals, list(t.shape)))


print("var (")
# Conv1D: x [2, 3, 6], weight [4, 3, 3] (out, in, k), bias [4], stride 2, pad 1.
x = seq([2, 3, 6], 0.7, 0.1)
w = seq([4, 3, 3], 0.3, 0.5)
b = seq([4], 1.1, 0.2)
show("torchConv1D", F.conv1d(x, w, b, stride=2, padding=1))

# Conv2D: x [2, 2, 5, 5], weight [3, 2, 3, 3], bias [3], SAME padding (1).
x = seq([2, 2, 5, 5], 0.7, 0.1)
w = seq([3, 2, 3, 3], 0.3, 0.5)
b = seq([3], 1.1, 0.2)
show("torchConv2D", F.conv2d(x, w, b, padding=1))

# Conv3D: x [1, 2, 3, 4, 4], weight [2, 2, 2, 2, 2], bias [2], stride 1, valid.
x = seq([1, 2, 3, 4, 4], 0.7, 0.1)
w = seq([2, 2, 2, 2, 2], 0.3, 0.5)
b = seq([2], 1.1, 0.2)
show("torchConv3D", F.conv3d(x, w, b))

# Pooling 3-D: x [1, 2, 4, 4, 4], kernel 2 (stride 2).
x = seq([1, 2, 4, 4, 4], 0.7, 0.1)
show("torchMaxPool3D", F.max_pool3d(x, 2))
show("torchAvgPool3D", F.avg_pool3d(x, 2))

# BatchNorm over [4, 3, 2, 2], gamma, beta: training (batch statistics)
# and inference (running mean and variance given).
x = seq([4, 3, 2, 2], 0.7, 0.1) * 2 + 0.5
gamma = seq([3], 0.9, 0.3) + 1.5
beta = seq([3], 0.4, 0.7)
show("torchBatchNormTrain", F.batch_norm(x, None, None, gamma, beta, training=True, eps=1e-5))
rm = seq([3], 0.5, 0.2) * 0.3
rv = seq([3], 0.6, 0.4) * 0.2 + 1
show("torchBatchNormInfer", F.batch_norm(x, rm, rv, gamma, beta, training=False, eps=1e-5))

# LayerNorm over the last axis of [2, 3, 4] with gain and bias, eps 0.
x = seq([2, 3, 4], 0.7, 0.1) * 3
gain = seq([4], 0.9, 0.3) + 1.5
bias = seq([4], 0.4, 0.7)
show("torchLayerNorm", F.layer_norm(x, [4], gain, bias, eps=0))

# LSTM: x [3 steps, 2 batch, 3 features], 2 units; weights in PyTorch's
# layout (gates i, f, g, o); bias_hh zero (sdgo's layer has one bias).
lstm = torch.nn.LSTM(3, 2)
with torch.no_grad():
    lstm.weight_ih_l0.copy_(seq([8, 3], 0.3, 0.5))
    lstm.weight_hh_l0.copy_(seq([8, 2], 0.45, 0.2))
    lstm.bias_ih_l0.copy_(seq([8], 1.1, 0.2))
    lstm.bias_hh_l0.zero_()
x = seq([3, 2, 3], 0.7, 0.1)
out, (hn, cn) = lstm(x)
show("torchLSTM", out)
show("torchLSTMLastC", cn[0])

# GRU: the same sizes, gates r, z, n; bias_hh zero.
gru = torch.nn.GRU(3, 2)
with torch.no_grad():
    gru.weight_ih_l0.copy_(seq([6, 3], 0.3, 0.5))
    gru.weight_hh_l0.copy_(seq([6, 2], 0.45, 0.2))
    gru.bias_ih_l0.copy_(seq([6], 1.1, 0.2))
    gru.bias_hh_l0.zero_()
out, _ = gru(x)
show("torchGRU", out)

# Multi-head attention: batch 2, 4 query features, 2 heads, 3 query steps,
# keys of 3 features and values of 5 over 4 steps; no biases.
mha = torch.nn.MultiheadAttention(4, 2, bias=False, kdim=3, vdim=5, batch_first=True)
with torch.no_grad():
    mha.q_proj_weight.copy_(seq([4, 4], 0.3, 0.5))
    mha.k_proj_weight.copy_(seq([4, 3], 0.45, 0.2))
    mha.v_proj_weight.copy_(seq([4, 5], 0.55, 0.9))
    mha.out_proj.weight.copy_(seq([4, 4], 0.35, 0.6))
q = seq([2, 3, 4], 0.7, 0.1)
k = seq([2, 4, 3], 0.8, 0.3)
v = seq([2, 4, 5], 0.9, 0.4)
out, _ = mha(q, k, v, need_weights=False)
show("torchMHA", out)  # [batch, tq, out]
print(")")
