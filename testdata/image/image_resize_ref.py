"""Expected values of sdgo's image_resize methods 3 to 7 and antialiasing
(ops/image_resize_methods_test.go).

Run with Debian's python3 (torch 1.13, Pillow, numpy):
    /usr/bin/python3 testdata/image/image_resize_ref.py

The resampling rule is TensorFlow's scale_and_translate, which libnd4j's
image_resize ports for methods 4 to 7 and for antialiased bilinear and
bicubic: output pixel x samples s = (x + 0.5)·in/out; the source pixels j
with |j + 0.5 - s| within the kernel's radius·k (k = max(in/out, 1) with
antialiasing, else 1), clamped to the image, are weighted
kernel((j + 0.5 - s)/k), normalized to sum to 1; rows, then columns. Area
(method 3) averages the source pixels over each output pixel's footprint,
weighted by overlap. The reference below builds those weight matrices
densely in float64 and is itself checked against torch's antialiased
bilinear and bicubic and Pillow's Lanczos on float images, independent
implementations of the same filters.
"""
import math

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image


def triangle(x):
    x = abs(x)
    return 1 - x if x < 1 else 0.0


def keys(a):
    def f(x):
        x = abs(x)
        if x >= 2:
            return 0.0
        if x >= 1:
            return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
        return ((a + 2) * x - (a + 3)) * x * x + 1
    return f


def lanczos(r):
    def f(x):
        x = abs(x)
        if x > r:
            return 0.0
        if x <= 1e-3:
            return 1.0
        return r * math.sin(math.pi * x) * math.sin(math.pi * x / r) / (math.pi ** 2 * x * x)
    return f


def gaussian(x):
    radius, sigma = 1.5, 0.5
    x = abs(x)
    return 0.0 if x >= radius else math.exp(-x * x / (2 * sigma * sigma))


def mitchell(x):
    x = abs(x)
    if x >= 2:
        return 0.0
    if x >= 1:
        return (((-7.0 / 18) * x + 2) * x - 10.0 / 3) * x + 16.0 / 9
    return (((7.0 / 6) * x - 2) * x) * x + 8.0 / 9


KERNELS = {  # name: (function, radius)
    "triangle": (triangle, 1.0), "keys": (keys(-0.5), 2.0), "lanczos3": (lanczos(3), 3.0),
    "lanczos5": (lanczos(5), 5.0), "gaussian": (gaussian, 1.5), "mitchell": (mitchell, 2.0),
}


def weights(kernel, n_out, n_in, antialias):
    f, radius = KERNELS[kernel]
    inv = n_in / n_out
    k = max(inv, 1.0) if antialias else 1.0
    w = np.zeros((n_out, n_in))
    for x in range(n_out):
        s = (x + 0.5) * inv
        lo = max(math.ceil(s - radius * k - 0.5), 0)
        hi = min(math.floor(s + radius * k - 0.5), n_in - 1)
        for j in range(lo, hi + 1):
            w[x, j] = f((j + 0.5 - s) / k)
        w[x] /= w[x].sum()
    return w


def area_weights(n_out, n_in):
    scale = n_in / n_out
    w = np.zeros((n_out, n_in))
    for y in range(n_out):
        a, b = y * scale, (y + 1) * scale
        for i in range(math.floor(a), math.ceil(b)):
            w[y, min(max(i, 0), n_in - 1)] += min(i + 1, b) - max(i, a)
        w[y] /= scale
    return w


def resize(img, h, w, wh, ww):
    return np.einsum("yi,ihc,xh->yxc", wh, img, ww)  # img [H, W, C]


def kernel_resize(img, h, w, kernel, antialias):
    return resize(img, h, w, weights(kernel, h, img.shape[0], antialias), weights(kernel, w, img.shape[1], antialias))


def area_resize(img, h, w):
    return resize(img, h, w, area_weights(h, img.shape[0]), area_weights(w, img.shape[1]))


# The images: [5, 6, 2] to shrink and [2, 3, 1] to enlarge.
big = np.array([(7 * i) % 11 / 4.0 - 1 for i in range(5 * 6 * 2)]).reshape(5, 6, 2)
small = np.array([0.5, -1.0, 2.0, 1.5, 0.0, -0.5]).reshape(2, 3, 1)

# The reference against torch and Pillow.
t = torch.tensor(big, dtype=torch.float64).permute(2, 0, 1)[None]
for mode, kernel in (("bilinear", "triangle"), ("bicubic", "keys")):
    want = F.interpolate(t, size=(3, 4), mode=mode, antialias=True, align_corners=False)[0].permute(1, 2, 0).numpy()
    assert np.allclose(kernel_resize(big, 3, 4, kernel, True), want, atol=1e-6), mode
for c in range(2):
    for (img, h, w) in ((big, 3, 4), (big, 7, 9)):
        p = Image.fromarray(img[:, :, c].astype(np.float32), mode="F").resize((w, h), Image.LANCZOS)
        assert np.allclose(kernel_resize(img, h, w, "lanczos3", True)[:, :, c], np.asarray(p), atol=1e-5)

cases = []
for kernel, method in (("triangle", 0), ("keys", 2), ("gaussian", 4), ("lanczos3", 5), ("lanczos5", 6), ("mitchell", 7)):
    for aa in (False, True):
        if method in (0, 2) and not aa:
            continue  # sdgo's earlier bilinear and bicubic tests cover these
        cases.append((method, aa, "big", 3, 4, kernel_resize(big, 3, 4, kernel, aa)))
    # Enlarging, antialiasing changes nothing; bilinear and bicubic
    # without it take libnd4j's older interpolating path (bicubic through
    # TensorFlow's tabulated weights), which sdgo's other tests cover.
    aa = method in (0, 2)
    cases.append((method, aa, "small", 3, 5, kernel_resize(small, 3, 5, kernel, aa)))
cases.append((3, False, "big", 3, 4, area_resize(big, 3, 4)))
cases.append((3, False, "small", 3, 5, area_resize(small, 3, 5)))

print("// Generated by testdata/image/image_resize_ref.py.")
print("var resizeMethodCases = []resizeMethodCase{")
for method, aa, img, h, w, out in cases:
    vals = ", ".join("%.9g" % v for v in out.reshape(-1))
    print("\t{%d, %s, %s, %d, %d, []float64{%s}}," % (method, "true" if aa else "false", img, h, w, vals))
print("}")
