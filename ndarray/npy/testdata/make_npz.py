# Writes the .npz files TestReadNPZFromNumPy reads (numpy 1.24, Debian's
# python3-numpy): run with /usr/bin/python3 make_npz.py in this folder.
import numpy as np
a = np.arange(1, 7, dtype='<f4').reshape(2, 3)
b = np.array([-1, 0, 2**40], dtype='<i8')
c = np.asfortranarray(np.array([[1.5, 2.5], [3.5, 4.5]], dtype='>f8'))
np.savez('savez.npz', a=a, b=b, c=c)
np.savez_compressed('savez_compressed.npz', a=a, b=b, c=c)
