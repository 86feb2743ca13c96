# The PyTorch peer of `go run ./bench` (bench/torch.go runs it; it is not
# meant to be run by hand). It builds the model named on the command line
# from the arrays of a .npz file sdgo wrote (the batch and sdgo's initial
# parameters), prints the loss of its first training step so that the Go
# side can check both engines compute the same thing, then answers
# "run N" lines on stdin with the seconds N more steps took.
#
#   python3 torch_peer.py MODEL DTYPE THREADS FILE.npz
#
# Thread counts: torch.set_num_threads, and OPENBLAS_NUM_THREADS and
# OMP_NUM_THREADS, which the Go side sets in the environment (Debian's
# torch runs its GEMMs in OpenBLAS, with OpenBLAS's own threads).
import sys
import time

import numpy as np
import torch


def dense_loss(h, layers, y):
    """h through the dense layers [(w, b)], relu between them; the mean
    softmax cross-entropy of the result with the one-hot labels y."""
    for j, (w, b) in enumerate(layers):
        h = torch.addmm(b, h, w)
        if j < len(layers) - 1:
            h = torch.relu(h)
    return -(torch.log_softmax(h, dim=1) * y).sum(dim=1).mean()


def mlp(arrays, dtype):
    """784-512-512-10 with relu, softmax cross-entropy, Adam(1e-3)."""
    x = torch.from_numpy(arrays['x']).to(dtype)
    y = torch.from_numpy(arrays['y']).to(dtype)
    params = []
    i = 0
    while 'w%d' % i in arrays:
        w = torch.from_numpy(arrays['w%d' % i]).to(dtype).requires_grad_()
        b = torch.from_numpy(arrays['b%d' % i]).to(dtype).requires_grad_()
        params.append((w, b))
        i += 1
    opt = torch.optim.Adam([p for wb in params for p in wb], lr=1e-3, betas=(0.9, 0.999), eps=1e-8)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = dense_loss(x, params, y)
        loss.backward()
        opt.step()
        return loss.item()
    return step


def conv3x3(arrays, dtype):
    """3x3 SAME conv2d of x [32,16,32,32] to 32 channels (weights [oC,iC,kH,kW]):
    the forward pass and the gradients of sum(y) with respect to x and w."""
    x = torch.from_numpy(arrays['x']).to(dtype).requires_grad_()
    w = torch.from_numpy(arrays['w']).to(dtype).requires_grad_()

    def step():
        x.grad, w.grad = None, None
        loss = torch.nn.functional.conv2d(x, w, padding=1).sum()
        loss.backward()
        return loss.item()
    return step


def lenet(arrays, dtype):
    """LeNet-5 as bench/conv.go builds it: conv weights come [kH,kW,iC,oC],
    dense weights [in,out]; softmax cross-entropy, Adam(1e-3)."""
    F = torch.nn.functional
    x = torch.from_numpy(arrays['x']).to(dtype).reshape(-1, 1, 28, 28)
    y = torch.from_numpy(arrays['y']).to(dtype)

    def param(name, conv=False):
        a = torch.from_numpy(arrays[name]).to(dtype)
        if conv:
            a = a.permute(3, 2, 0, 1).contiguous()
        return a.requires_grad_()
    c1w, c1b = param('conv1_w', True), param('conv1_b')
    c2w, c2b = param('conv2_w', True), param('conv2_b')
    fc = [(param('fc%d_w' % i), param('fc%d_b' % i)) for i in (1, 2, 3)]
    params = [c1w, c1b, c2w, c2b] + [p for wb in fc for p in wb]
    opt = torch.optim.Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8)

    def step():
        opt.zero_grad(set_to_none=True)
        h = F.max_pool2d(F.relu(F.conv2d(x, c1w, c1b, padding=2)), 2)
        h = F.max_pool2d(F.relu(F.conv2d(h, c2w, c2b)), 2).reshape(-1, 400)
        loss = dense_loss(h, fc, y)
        loss.backward()
        opt.step()
        return loss.item()
    return step


def adam_ce_step(params, forward, y):
    """A training step of softmax cross-entropy over forward()'s logits
    with Adam(1e-3), as sdgo's trainer takes it."""
    opt = torch.optim.Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = -(torch.log_softmax(forward(), dim=1) * y).sum(dim=1).mean()
        loss.backward()
        opt.step()
        return loss.item()
    return step


def lstm(arrays, dtype):
    """nn.LSTM (batch first) from sdgo's lstmLayer weights wx [in, 4H],
    wr [H, 4H] and b [4H] (gates i, f, g, o in both), the last output
    through wo, bo. torch's second bias stays at zero, untrained."""
    t = {k: torch.from_numpy(v).to(dtype) for k, v in arrays.items()}
    n_in, hidden = t['wx'].shape[0], t['wr'].shape[0]
    m = torch.nn.LSTM(n_in, hidden, batch_first=True).to(dtype)
    with torch.no_grad():
        m.weight_ih_l0.copy_(t['wx'].T)
        m.weight_hh_l0.copy_(t['wr'].T)
        m.bias_ih_l0.copy_(t['b'])
        m.bias_hh_l0.zero_()
    m.bias_hh_l0.requires_grad_(False)
    wo, bo = t['wo'].requires_grad_(), t['bo'].requires_grad_()

    def forward():
        _, (h, _) = m(t['x'])
        return torch.addmm(bo, h[-1], wo)
    return adam_ce_step([m.weight_ih_l0, m.weight_hh_l0, m.bias_ih_l0, wo, bo], forward, t['y'])


def transformer(arrays, dtype):
    """nn.TransformerEncoderLayer (post-norm, ReLU, no dropout) from sdgo's
    q, k, v, o, ff1, ff2 weights [in, out] and layer norms ln1, ln2; the
    tokens' mean through out_w, out_b. sdgo's layer_norm has no epsilon,
    so torch's is made negligible."""
    t = {k: torch.from_numpy(v).to(dtype) for k, v in arrays.items()}
    width, hidden = t['q_w'].shape[0], t['ff1_w'].shape[1]
    m = torch.nn.TransformerEncoderLayer(width, 4, hidden, dropout=0.0, batch_first=True, layer_norm_eps=1e-12).to(dtype)
    with torch.no_grad():
        m.self_attn.in_proj_weight.copy_(torch.cat([t['q_w'].T, t['k_w'].T, t['v_w'].T]))
        m.self_attn.in_proj_bias.copy_(torch.cat([t['q_b'], t['k_b'], t['v_b']]))
        m.self_attn.out_proj.weight.copy_(t['o_w'].T)
        m.self_attn.out_proj.bias.copy_(t['o_b'])
        m.linear1.weight.copy_(t['ff1_w'].T)
        m.linear1.bias.copy_(t['ff1_b'])
        m.linear2.weight.copy_(t['ff2_w'].T)
        m.linear2.bias.copy_(t['ff2_b'])
        for ln, name in ((m.norm1, 'ln1'), (m.norm2, 'ln2')):
            ln.weight.copy_(t[name + '_g'])
            ln.bias.copy_(t[name + '_b'])
    m.train()
    w, b = t['out_w'].requires_grad_(), t['out_b'].requires_grad_()

    def forward():
        return torch.addmm(b, m(t['x']).mean(dim=1), w)
    return adam_ce_step(list(m.parameters()) + [w, b], forward, t['y'])


MODELS = {'mlp': mlp, 'conv3x3': conv3x3, 'lenet': lenet, 'lstm': lstm, 'transformer': transformer}


def main():
    model, dtype, threads, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    torch.set_num_threads(threads)
    dt = {'float32': torch.float32, 'float64': torch.float64}[dtype]
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    step = MODELS[model](arrays, dt)
    print('loss %r' % step(), flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] != 'run':
            print('error unknown request %r' % line, flush=True)
            return 1
        n = int(words[1])
        start = time.perf_counter()
        for _ in range(n):
            step()
        print('seconds %r' % (time.perf_counter() - start), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
