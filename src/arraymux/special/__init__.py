"""Special functions: the ``scipy.special`` functions that SciPy looks up on an array
namespace (``xp.special.<name>``), computed by the backend of their array operands.

Each has SciPy's name and signature and runs where its array operands are: ``torch.special``
for torch tensors, ``jax.scipy.special`` for JAX arrays, ``cupyx.scipy.special`` for CuPy
arrays, ``scipy.special`` for NumPy arrays (block by block for Dask, on the NumPy data of
array-api-strict arrays, on their device). Where a backend has no function of its own,
arraymux computes it from the backend's elementary functions if the formula is short and
accurate, else with ``scipy.special`` on the host for the arrays SciPy itself reads there
(CPU tensors and JAX arrays, outside transforms), else raises ``NotImplementedError``.

Results follow SciPy's dtype rule: float32 operands give float32, float64 ones float64,
bool and integer ones the device's default floating dtype. They are differentiable under
``arraymux.grad`` where the backend's function is (torch and JAX; NumPy arrays are computed by
torch there). ``Array.__array_namespace__()`` has this module as its ``special``, so that
``scipy.special.erf(x)`` (with ``SCIPY_ARRAY_API=1``) runs ``torch.special.erf`` for an Array
of torch.
"""

from __future__ import annotations

from ._dispatch import function

__all__ = [
    "bdtr",
    "bdtrc",
    "bdtri",
    "betainc",
    "betaincc",
    "betaincinv",
    "betaln",
    "binom",
    "boxcox",
    "boxcox1p",
    "cbrt",
    "chdtr",
    "chdtrc",
    "chdtri",
    "cosdg",
    "cosm1",
    "cotdg",
    "digamma",
    "ellipk",
    "ellipkm1",
    "entr",
    "erf",
    "erfc",
    "erfcx",
    "erfinv",
    "exp1",
    "exp10",
    "exp2",
    "expi",
    "expit",
    "expn",
    "exprel",
    "fdtr",
    "fdtrc",
    "fdtri",
    "gamma",
    "gammainc",
    "gammaincc",
    "gammainccinv",
    "gammaincinv",
    "gammaln",
    "gammasgn",
    "gdtr",
    "gdtrc",
    "huber",
    "hyp1f1",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "inv_boxcox",
    "inv_boxcox1p",
    "j0",
    "j1",
    "k0",
    "k0e",
    "k1",
    "k1e",
    "kl_div",
    "log_ndtr",
    "loggamma",
    "logit",
    "lpmv",
    "multigammaln",
    "nbdtr",
    "nbdtrc",
    "nbdtri",
    "ndtr",
    "ndtri",
    "pdtr",
    "pdtrc",
    "pdtri",
    "poch",
    "polygamma",
    "pseudo_huber",
    "psi",
    "radian",
    "rel_entr",
    "rgamma",
    "sinc",
    "sindg",
    "spence",
    "stdtr",
    "stdtrit",
    "tandg",
    "xlog1py",
    "xlogy",
    "y0",
    "y1",
    "yn",
    "zeta",
    "zetac",
]

bdtr = function("bdtr")
bdtrc = function("bdtrc")
bdtri = function("bdtri")
betainc = function("betainc")
betaincc = function("betaincc")
betaincinv = function("betaincinv")
betaln = function("betaln")
binom = function("binom")
boxcox = function("boxcox")
boxcox1p = function("boxcox1p")
cbrt = function("cbrt")
chdtr = function("chdtr")
chdtrc = function("chdtrc")
chdtri = function("chdtri")
cosdg = function("cosdg")
cosm1 = function("cosm1")
cotdg = function("cotdg")
ellipk = function("ellipk")
ellipkm1 = function("ellipkm1")
entr = function("entr")
erf = function("erf")
erfc = function("erfc")
erfcx = function("erfcx")
erfinv = function("erfinv")
exp1 = function("exp1")
exp10 = function("exp10")
exp2 = function("exp2")
exprel = function("exprel")
expi = function("expi")
expit = function("expit")
expn = function("expn")
fdtr = function("fdtr")
fdtrc = function("fdtrc")
fdtri = function("fdtri")
gamma = function("gamma")
gammainc = function("gammainc")
gammaincc = function("gammaincc")
gammainccinv = function("gammainccinv")
gammaincinv = function("gammaincinv")
gammaln = function("gammaln")
gammasgn = function("gammasgn")
gdtr = function("gdtr")
gdtrc = function("gdtrc")
huber = function("huber")
hyp1f1 = function("hyp1f1")
inv_boxcox = function("inv_boxcox")
inv_boxcox1p = function("inv_boxcox1p")
i0 = function("i0")
i0e = function("i0e")
i1 = function("i1")
i1e = function("i1e")
j0 = function("j0")
j1 = function("j1")
k0 = function("k0")
k0e = function("k0e")
k1 = function("k1")
k1e = function("k1e")
kl_div = function("kl_div")
log_ndtr = function("log_ndtr")
loggamma = function("loggamma")
logit = function("logit")
lpmv = function("lpmv")
multigammaln = function("multigammaln")
nbdtr = function("nbdtr")
nbdtrc = function("nbdtrc")
nbdtri = function("nbdtri")
ndtr = function("ndtr")
ndtri = function("ndtri")
pdtr = function("pdtr")
pdtrc = function("pdtrc")
pdtri = function("pdtri")
poch = function("poch")
pseudo_huber = function("pseudo_huber")
polygamma = function("polygamma")
psi = function("psi")
radian = function("radian")
rel_entr = function("rel_entr")
rgamma = function("rgamma")
sinc = function("sinc")
sindg = function("sindg")
spence = function("spence")
stdtr = function("stdtr")
stdtrit = function("stdtrit")
tandg = function("tandg")
xlog1py = function("xlog1py")
xlogy = function("xlogy")
y0 = function("y0")
y1 = function("y1")
yn = function("yn")
zeta = function("zeta")
zetac = function("zetac")

#: SciPy's other name of ``psi``.
digamma = psi


def __dir__() -> list[str]:
    return list(__all__)
