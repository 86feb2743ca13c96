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
        h = x
        for j, (w, b) in enumerate(params):
            h = torch.addmm(b, h, w)
            if j < len(params) - 1:
                h = torch.relu(h)
        loss = -(torch.log_softmax(h, dim=1) * y).sum(dim=1).mean()
        loss.backward()
        opt.step()
        return loss.item()
    return step


MODELS = {'mlp': mlp}


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
