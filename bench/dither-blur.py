#!/usr/bin/env python3
# usage: bench/dither-blur.py TRUECOLOR.ppm PICTURE.ppm...  (gully render X.gsnap -o T.ppm [--colors 256])
# Mean and 99th-percentile OKLab distance of each picture to the truecolor
# one, after a Gaussian blur of sigma 0, 0.5, 1 and 1.5 pixels of both (the
# eye averaging neighbouring half-block pixels). bench/TUI.md.
import sys, numpy as np
def ppm(p):
    b=open(p,'rb').read(); parts=b.split(b'\n',3)
    w,h=map(int,parts[1].split()); return np.frombuffer(parts[3],np.uint8).reshape(h,w,3).astype(float)/255
def lin(c): return np.where(c<=0.04045,c/12.92,((c+0.055)/1.055)**2.4)
def oklab(l):
    M1=np.array([[0.4122214708,0.5363325363,0.0514459929],[0.2119034982,0.6806995451,0.1073969566],[0.0883024619,0.2817188376,0.6299787005]])
    M2=np.array([[0.2104542553,0.7936177850,-0.0040720468],[1.9779984951,-2.4285922050,0.4505937099],[0.0259040371,0.7827717662,-0.8086757660]])
    lms=np.cbrt(l@M1.T); return lms@M2.T
def blur(img,s):
    if s==0: return img
    r=int(3*s+1); x=np.arange(-r,r+1); k=np.exp(-x*x/(2*s*s)); k/=k.sum()
    out=img.copy()
    for ax in (0,1):
        pad=[(0,0)]*3; pad[ax]=(r,r); p=np.pad(out,pad,mode='edge')
        out=sum(k[i]*np.take(p,range(i,i+out.shape[ax]),axis=ax) for i in range(2*r+1))
    return out
t=lin(ppm(sys.argv[1]))
for name in sys.argv[2:]:
    q=lin(ppm(name)); row=[]
    for s in (0,0.5,1.0,1.5):
        d=np.linalg.norm(oklab(blur(t,s))-oklab(blur(q,s)),axis=2)
        row.append(f"sigma {s}: mean {d.mean():.4f} p99 {np.percentile(d,99):.4f}")
    print(name, " | ".join(row))
