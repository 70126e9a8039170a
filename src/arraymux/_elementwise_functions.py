"""Element-wise functions of the Array API standard, dispatched to the array's backend."""

from __future__ import annotations

from ._dispatch import binary, generic, unary

__all__ = [
    "abs",
    "acos",
    "acosh",
    "add",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "bitwise_and",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "ceil",
    "clip",
    "conj",
    "copysign",
    "cos",
    "cosh",
    "divide",
    "equal",
    "exp",
    "expm1",
    "floor",
    "floor_divide",
    "greater",
    "greater_equal",
    "hypot",
    "imag",
    "isfinite",
    "isinf",
    "isnan",
    "less",
    "less_equal",
    "log",
    "log10",
    "log1p",
    "log2",
    "logaddexp",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "multiply",
    "negative",
    "nextafter",
    "not_equal",
    "positive",
    "pow",
    "real",
    "reciprocal",
    "remainder",
    "round",
    "sign",
    "signbit",
    "sin",
    "sinh",
    "sqrt",
    "square",
    "subtract",
    "tan",
    "tanh",
    "trunc",
]

abs = unary("abs")
acos = unary("acos")
acosh = unary("acosh")
asin = unary("asin")
asinh = unary("asinh")
atan = unary("atan")
atanh = unary("atanh")
bitwise_invert = unary("bitwise_invert")
ceil = unary("ceil")
conj = unary("conj")
cos = unary("cos")
cosh = unary("cosh")
exp = unary("exp")
expm1 = unary("expm1")
floor = unary("floor")
imag = unary("imag")
isfinite = unary("isfinite")
isinf = unary("isinf")
isnan = unary("isnan")
log = unary("log")
log1p = unary("log1p")
log2 = unary("log2")
log10 = unary("log10")
logical_not = unary("logical_not")
negative = unary("negative")
positive = unary("positive")
real = unary("real")
reciprocal = unary("reciprocal")
round = unary("round")
sign = unary("sign")
signbit = unary("signbit")
sin = unary("sin")
sinh = unary("sinh")
square = unary("square")
sqrt = unary("sqrt")
tan = unary("tan")
tanh = unary("tanh")
trunc = unary("trunc")
add = binary("add")
atan2 = binary("atan2")
bitwise_and = binary("bitwise_and")
bitwise_left_shift = binary("bitwise_left_shift")
bitwise_or = binary("bitwise_or")
bitwise_right_shift = binary("bitwise_right_shift")
bitwise_xor = binary("bitwise_xor")
copysign = binary("copysign")
divide = binary("divide")
equal = binary("equal")
floor_divide = binary("floor_divide")
greater = binary("greater")
greater_equal = binary("greater_equal")
hypot = binary("hypot")
less = binary("less")
less_equal = binary("less_equal")
logaddexp = binary("logaddexp")
logical_and = binary("logical_and")
logical_or = binary("logical_or")
logical_xor = binary("logical_xor")
maximum = binary("maximum")
minimum = binary("minimum")
multiply = binary("multiply")
nextafter = binary("nextafter")
not_equal = binary("not_equal")
pow = binary("pow")
remainder = binary("remainder")
subtract = binary("subtract")
clip = generic("clip")
