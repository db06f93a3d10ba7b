#!/usr/bin/env python3
"""The expression parser against SymPy (issue 36): a seeded corpus of random expressions, read
by the engine (parser_oracle_engine, through symbolic::ParseExpression) and by SymPy's parser
(`^` written `**`), compared by value at random points to 1e-12 relative.

The corpus has every operator, unary signs in every position (`x*-y`, `2^-x^2`, `a/-b`, `--x`,
`f(-x, +y)`), chains of powers (`2^3^2`), redundant and missing parentheses, every function the
parser accepts, the constants Pi, Euler and Catalan, and numbers in every notation (`3`, `2.5`,
`.5`, `5.`, `1e-3`, `1.5E+2`, `25e-1`). The text is composed without regard to precedence: the
meaning of every expression is SymPy's, and the engine must agree. Arguments stay in the real
domains (log, sqrt and real powers of positive values, asin and acos of values in [-1, 1]): the
generator builds those arguments from positive and bounded pieces, and the symbols take positive
rational values. Both sides evaluate exactly substituted points at 30 digits.

SymPy's parse is taken unevaluated (evaluate=False: the tree is Python's parse, with SymPy's
Add, Mul, Pow and functions; simplifying the numeric subexpressions cost seconds) and evaluated
with mpmath (principal branches); the engine's expressions with GiNaC's evalf.

A point is skipped where either side overflows (|value| > 1e250, or a constant the engine
refuses as outside the range of double) or where one side cannot evaluate it (a pole of the
exact substitution). A mismatch is excused as ill-conditioned only where SymPy's own value moves
past the tolerance when computed with 17 digits and the decimals moved by 1e-15 (the engine
computes with about 19 digits once a decimal is involved). An expression both sides find
undefined (SymPy without a finite value at any point; the engine refusing it for a division by
zero, a pole or 0^x) counts as agreeing. Any other refusal by the engine, any other mismatch,
and skipped plus ill-conditioned points above 1% fail.

Usage: parser_oracle.py --engine PATH [--count 10000] [--points 3] [--seed 36] [--keep FILE]
"""

import argparse
import random
import re
import subprocess
import sys
import tempfile
import time

import mpmath
import sympy
from sympy.parsing.sympy_parser import parse_expr, standard_transformations

SYMBOLS = ["x", "y", "z", "vx", "k", "m", "g", "a", "b", "c"]
UNARY = ["", "", "", "", "-", "-", "+", "--", "- -", "-+", "+-", "- + -"]
CONSTANTS = ["Pi", "Euler", "Catalan"]
REAL_FUNCTIONS = ["sin", "cos", "tan", "atan", "sinh", "cosh", "tanh", "abs", "exp"]
MAX_EXPONENT_DIGITS = 4  # the engine's limit on the integers of one exponent
TOLERANCE = 1e-12  # relative, with an absolute floor of the same size below 1
OVERFLOW = 1e250


class Generator:
    """Random expression texts, each real-valued at positive values of the symbols."""

    def __init__(self, rng):
        self.r = rng

    def pick(self, items):
        return self.r.choice(items)

    def space(self):
        return self.pick(["", "", "", " ", " ", "  ", "\t"])

    def signs(self, probability=0.35):
        return self.pick(UNARY[4:]) if self.r.random() < probability else ""

    def number(self):
        """A positive number in one of the notations."""
        r = self.r
        form = r.randrange(10)
        if form <= 2:
            return str(r.randint(1, 9) if form < 2 else r.randint(10, 99))
        if form == 3:
            text = f"{r.randint(0, 9)}.{r.randint(0, 99):02d}".rstrip("0")
            return text if float(text) > 0 else "0.5"
        if form == 4:
            return f".{r.randint(1, 9)}{self.pick(['', '5', '25'])}"
        if form == 5:
            return f"{r.randint(1, 9)}."
        mantissa = self.pick(["1", "2.5", "25", ".5", "5.", "1.5", "3"])
        marker = self.pick(["e", "E"])
        exponent = self.pick(["-3", "-1", "0", "1", "+1", "+2", "2", "-2"])
        text = f"{mantissa}{marker}{exponent}"
        return text if float(text) > 0 else "1e0"

    def small_number(self):
        """A positive number of at most 10 in one of the notations (for exponents)."""
        for _ in range(20):
            text = self.number()
            if float(text) <= 10:
                return text
        return "2"

    def positive_atom(self, small=False):
        r = self.r.random()
        if r < 0.55:
            return self.pick(SYMBOLS)
        if r < 0.9:
            return self.small_number() if small else self.number()
        return self.pick(CONSTANTS)

    def call(self, name, *arguments):
        s = self.space
        return f"{name}{s()}({s()}" + f"{s()},{s()}".join(arguments) + f"{s()})"

    # ---- positive values ---------------------------------------------------------------
    def positive_primary(self, d):
        """A positive value that may be the base of a power: an atom, a call, a group."""
        if d <= 0 or self.r.random() < 0.4:
            return self.positive_atom()
        choice = self.r.randrange(7)
        if choice == 0:
            return self.call("exp", self.bounded(d - 1))
        if choice == 1:
            return self.call("cosh", self.bounded(d - 1))
        if choice == 2:
            return self.call("sqrt", self.positive(d - 1))
        if choice == 3:
            return self.call("pow", self.positive(d - 1), self.bounded(d - 1))
        if choice == 4:
            return f"(1{self.space()}+{self.space()}({self.any(d - 1)})^2)"
        if choice == 5:
            return f"(abs({self.any(d - 1)}){self.space()}+{self.space()}{self.positive_atom()})"
        return f"({self.space()}{self.positive(d - 1)}{self.space()})"

    def positive_factor(self, d):
        """A positive value, possibly a power with an exponent of any sign and shape."""
        base = self.positive_primary(d)
        if d > 0 and self.r.random() < 0.3:
            return f"{base}{self.space()}^{self.space()}{self.exponent(d - 1)}"
        return base

    def positive(self, d):
        """A positive value: sums, products and quotients of positive factors, with pairs of
        signs that cancel (`-a*-b`, `--a`, `a - -b`)."""
        s = self.space
        if d <= 0:
            return self.positive_atom()
        choice = self.r.randrange(6)
        if choice == 0:
            return f"{self.positive(d - 1)}{s()}+{s()}{self.pick(['', '+', '--'])}" \
                   f"{self.positive_factor(d - 1)}"
        if choice == 1:
            return f"{self.positive(d - 1)}{s()}-{s()}-{self.positive_factor(d - 1)}"
        if choice == 2:
            op = self.pick(["*", "/"])
            return f"-{self.positive_factor(d - 1)}{s()}{op}{s()}-{self.positive_factor(d - 1)}"
        if choice == 3:
            op = self.pick(["*", "/"])
            return f"{self.positive_factor(d - 1)}{s()}{op}{s()}{self.positive_factor(d - 1)}"
        if choice == 4:
            return f"{self.pick(['--', '+', '- -', '-+-'])}{self.positive_factor(d - 1)}"
        return self.positive_factor(d)

    # ---- bounded and unit values -------------------------------------------------------
    def bounded(self, d):
        """A real value of moderate size (an argument of exp and cosh, an exponent)."""
        choice = self.r.randrange(4)
        inner = self.any(max(d - 1, 0))
        if choice == 0:
            return self.call(self.pick(["sin", "cos", "tanh", "atan"]), inner)
        if choice == 1:
            return f"{self.signs(0.6)}{self.positive_atom(small=True)}"
        if choice == 2:
            return self.unit(d)
        return f"{self.signs()}{self.call('log', self.positive(max(d - 1, 0)))}"

    def unit(self, d):
        """A value in [-1, 1], for asin and acos."""
        inner = self.any(max(d - 1, 0))
        choice = self.r.randrange(4)
        if choice == 0:
            return f"{self.signs()}{self.call(self.pick(['sin', 'cos', 'tanh']), inner)}"
        if choice == 1:
            p = self.positive(max(d - 1, 0))
            return f"{self.signs()}({p})/({p}{self.space()}+{self.space()}{self.positive_atom()})"
        if choice == 2:
            return f"{self.signs()}{self.pick(['.5', '0.25', '1/3', '2/7', '1e-1'])}"
        return f"{self.signs()}{self.call('sin', inner)}*{self.call('cos', inner)}"

    def exponent(self, d):
        """Any real exponent text after '^' (its signs included), short enough for the limit
        on the integers of an exponent."""
        for _ in range(20):
            text = self.signs(0.5) + (self.bounded(d) if d > 0 and self.r.random() < 0.5
                                      else self.exponent_atom(d))
            if integer_digits(text) <= MAX_EXPONENT_DIGITS:
                return text
        return self.pick(["x", "-y", "0.5"])

    def exponent_atom(self, d):
        choice = self.r.randrange(5)
        if choice == 0:
            return self.positive_atom(small=True)
        if choice == 1:  # a chain: 2^3^2, x^-y^2
            base = self.pick(["2", "3", "x", "y", "1.5", ".5", "Pi"])
            return f"{base}^{self.signs(0.5)}{self.pick(['2', 'y', '.5', '3'])}"
        if choice == 2:  # x^1/2 is (x^1)/2
            return f"{self.positive_atom(small=True)}{self.space()}{self.pick(['*', '/'])}" \
                   f"{self.signs()}{self.positive_atom(small=True)}"
        if choice == 3:
            return f"({self.signs()}{self.positive_atom(small=True)}{self.space()}" \
                   f"{self.pick(['+', '-', '*', '/'])}{self.space()}{self.signs()}" \
                   f"{self.positive_atom(small=True)})"
        return self.pick(["2", "3", "1", ".5", "2.5", "1e0", "1/2"])

    # ---- any real value ----------------------------------------------------------------
    def integer_power(self, d):
        """(any)^n with a small integer n of either sign: defined for any real base."""
        n = self.pick(["2", "3", "1", "-1", "-2", "+2", "- 1", "--2"])
        return f"({self.any(d - 1)}){self.space()}^{self.space()}{n}"

    def function_call(self, d):
        choice = self.r.randrange(8)
        if choice <= 2:
            return self.call(self.pick(REAL_FUNCTIONS[:-1]), self.signs() + self.any(d - 1))
        if choice == 3:
            return self.call("exp", self.bounded(d - 1))
        if choice == 4:
            return self.call(self.pick(["log", "sqrt"]), self.positive(d - 1))
        if choice == 5:
            return self.call(self.pick(["asin", "acos"]), self.unit(d - 1))
        if choice == 6:
            return self.call("atan2", self.signs() + self.any(d - 1), self.signs() + self.any(d - 1))
        return self.call("pow", self.any(d - 1), self.pick(["2", "-1", "3", "+2", "-2"]))

    def factor(self, d):
        """A factor of any sign: an atom, a call, a group, a power."""
        if d <= 0:
            return self.positive_atom()
        choice = self.r.randrange(6)
        if choice == 0:
            return self.positive_factor(d)
        if choice == 1:
            return self.function_call(d)
        if choice == 2:
            return self.integer_power(d)
        if choice == 3:
            return f"({self.space()}{self.any(d - 1)}{self.space()})"
        if choice == 4:
            return f"{self.positive_primary(d - 1)}^{self.exponent(d - 1)}"
        return self.positive_atom()

    def any(self, d):
        """Any real value; the unary signs land after every operator."""
        s = self.space
        if d <= 0:
            return self.signs(0.3) + self.positive_atom()
        choice = self.r.randrange(6)
        if choice == 0:
            op = self.pick(["+", "-"])
            return f"{self.any(d - 1)}{s()}{op}{s()}{self.signs()}{self.factor(d - 1)}"
        if choice == 1:
            return f"{self.signs(0.3)}{self.factor(d - 1)}{s()}*{s()}{self.signs()}" \
                   f"{self.factor(d - 1)}"
        if choice == 2:  # a quotient: the denominator is positive, maybe with a sign
            return f"{self.signs(0.3)}{self.factor(d - 1)}{s()}/{s()}{self.signs()}" \
                   f"{self.positive_factor(d - 1)}"
        if choice == 3:
            return f"{self.signs(0.8)}{self.factor(d)}"
        if choice == 4:
            return f"{self.any(d - 1)}{s()}{self.pick(['*', '/', '+', '-'])}{s()}" \
                   f"{self.signs()}{self.positive_factor(d - 1)}{s()}{self.pick(['*', '/'])}" \
                   f"{s()}{self.signs()}{self.positive_atom()}"
        return self.factor(d)

    def expression(self):
        depth = self.r.choices([1, 2, 3, 4], weights=[1, 3, 4, 3])[0]
        return self.space() + self.any(depth) + self.space()


def integer_digits(text):
    """Digits of the integer literals in `text` (the engine's exponent limit counts these)."""
    return sum(len(n) for n in re.findall(r"[0-9.]+(?:[eE][+-]?[0-9]+)?", text) if n.isdigit())


SYMPY_NAMES = {
    "sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan, "exp": sympy.exp, "log": sympy.log,
    "sqrt": sympy.sqrt, "asin": sympy.asin, "acos": sympy.acos, "atan": sympy.atan,
    "sinh": sympy.sinh, "cosh": sympy.cosh, "tanh": sympy.tanh,
    # Unevaluated like the functions above under evaluate=False (Abs would ask assumptions).
    "abs": lambda a: sympy.Abs(a, evaluate=False),
    "atan2": lambda y, x: sympy.atan2(y, x, evaluate=False),
    "pow": lambda a, b: sympy.Pow(a, b, evaluate=False),
    # GiNaC's literals: Euler is the Euler-Mascheroni constant, not e (E is not a name there).
    "Pi": sympy.pi, "Euler": sympy.EulerGamma, "Catalan": sympy.Catalan,
    # What parse_expr's transformations and evaluate=False write.
    "Integer": sympy.Integer, "Float": sympy.Float, "Rational": sympy.Rational,
    "Symbol": sympy.Symbol, "Add": sympy.Add, "Mul": sympy.Mul, "Pow": sympy.Pow,
}

MP_FUNCTIONS = {
    sympy.sin: mpmath.sin, sympy.cos: mpmath.cos, sympy.tan: mpmath.tan, sympy.exp: mpmath.exp,
    sympy.log: mpmath.log, sympy.asin: mpmath.asin, sympy.acos: mpmath.acos,
    sympy.atan: mpmath.atan, sympy.sinh: mpmath.sinh, sympy.cosh: mpmath.cosh,
    sympy.tanh: mpmath.tanh, sympy.Abs: abs, sympy.atan2: mpmath.atan2,
}
MP_CONSTANTS = {sympy.pi: mpmath.pi, sympy.EulerGamma: mpmath.euler,
                sympy.Catalan: mpmath.catalan, sympy.E: mpmath.e, sympy.I: mpmath.mpc(0, 1)}


class Undefined(Exception):
    pass


def evaluate(e, values, perturb=None):
    """The value of SymPy's tree `e` in mpmath (principal branches), symbols from `values`;
    with `perturb` (a random.Random), every decimal literal moved by 1e-15 relative."""
    if e.is_Symbol:
        return values[e]
    if e.is_Integer:
        return mpmath.mpf(int(e))
    if e.is_Rational:
        return mpmath.mpf(e.p) / e.q
    if e.is_Float:
        value = mpmath.mpf(str(e))  # the decimal literal (at most 15 digits), exactly
        return value * (1 + perturb.choice([-1e-15, 1e-15])) if perturb else value
    if not e.args:
        if e in MP_CONSTANTS:
            return +MP_CONSTANTS[e]
        raise Undefined(f"{e}")
    args = [evaluate(a, values, perturb) for a in e.args]
    if e.is_Add:
        return mpmath.fsum(args)
    if e.is_Mul:
        return mpmath.fprod(args)
    if e.is_Pow:
        return mpmath.power(args[0], args[1])
    if e.func in MP_FUNCTIONS:
        return MP_FUNCTIONS[e.func](*args)
    raise Undefined(f"{e.func} ({e})")


def sympy_value(expr, symbols, point, dps=30, perturb=None):
    """`expr` at `point` (exact rationals) with `dps` digits, or None where undefined."""
    with mpmath.workdps(dps):
        values = {s: mpmath.mpf(p) / q for s, (p, q) in zip(symbols, point)}
        try:
            v = mpmath.mpc(evaluate(expr, values, perturb))
        except (ZeroDivisionError, ValueError, OverflowError, Undefined):
            return None
        if not (mpmath.isfinite(v.real) and mpmath.isfinite(v.imag)):
            return None
        return complex(v)


def ill_conditioned(expr, symbols, point, value, rng):
    """True if the value moves by more than the tolerance when computed with 17 digits and the
    decimal literals moved by 1e-15 relative: the engine computes with about 19 digits once a
    decimal is involved (GiNaC's floats; SymPy keeps decimals to 15), so no parser could agree
    closer there (acos(tanh(25.0 - m)) is 1e-10 at 30 digits, 0 at 19)."""
    moved = sympy_value(expr, symbols, point, dps=17, perturb=rng)
    return moved is None or abs(moved - value) > TOLERANCE * max(abs(value), 1.0)


def parse_with_sympy(texts, local):
    """SymPy's parser on every text (`^` written `**`; no implicit multiplication, names only
    from SYMPY_NAMES and the symbols), many texts per call (a tuple of them: the same
    tokenisation and grammar, a fraction of the overhead). evaluate=False keeps SymPy from
    simplifying numeric subexpressions (seconds on this corpus): the tree is Python's parse."""
    exprs = []
    for start in range(0, len(texts), 200):
        chunk = texts[start:start + 200]
        joined = "(" + ",".join("(" + t.replace("^", "**") + ")" for t in chunk) + ",)"
        exprs += parse_expr(joined, local_dict=dict(local), global_dict=dict(SYMPY_NAMES),
                            transformations=standard_transformations, evaluate=False)
    return exprs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", required=True, help="path of parser_oracle_engine")
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--points", type=int, default=3)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--keep", help="write the corpus and the engine's answers here")
    args = parser.parse_args()
    start = time.time()
    mpmath.mp.dps = 30
    rng = random.Random(args.seed)
    gen = Generator(rng)
    symbols = [sympy.Symbol(n) for n in SYMBOLS]
    local = {n: s for n, s in zip(SYMBOLS, symbols)}

    corpus = []
    for _ in range(args.count):
        text = gen.expression()
        points = [[(rng.randint(50, 250), rng.choice([97, 100, 101, 128])) for _ in SYMBOLS]
                  for _ in range(args.points)]
        corpus.append((text, points))

    # The engine: one line per expression.
    lines = ["symbols " + " ".join(SYMBOLS)]
    for text, points in corpus:
        encoded = ";".join(",".join(f"{p}/{q}" for p, q in point) for point in points)
        lines.append(text.replace("\t", " ") + "\t" + encoded)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        corpus_file = f.name
    run = subprocess.run([args.engine, corpus_file], capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stderr, file=sys.stderr)
        sys.exit(f"parser_oracle: the engine failed with status {run.returncode}")
    answers = run.stdout.splitlines()
    if len(answers) != len(corpus):
        sys.exit(f"parser_oracle: {len(answers)} answers for {len(corpus)} expressions")
    if args.keep:
        with open(args.keep, "w") as f:
            for (text, _), answer in zip(corpus, answers):
                f.write(f"{text}\n    {answer}\n")
    engine_time = time.time() - start

    compared = skipped = ill = undefined = 0
    failures = []
    exprs = parse_with_sympy([text for text, _ in corpus], local)
    for (text, points), answer, expr in zip(corpus, answers, exprs):
        values = [sympy_value(expr, symbols, point) for point in points]
        if answer.startswith("refused"):
            if all(v is None or abs(v) > OVERFLOW for v in values) and any(
                    why in answer for why in ("division by zero", "pole", "log(0)",
                                              "0 raised to a non-constant power")):
                undefined += 1
            elif "outside the range of double" in answer and all(
                    v is None or abs(v) > OVERFLOW for v in values):
                skipped += len(points)  # an overflowing constant, refused as documented
            else:
                failures.append(f"{text!r}: the engine refused it ({answer}); SymPy reads "
                                f"{expr}, value {values[0]}")
            continue
        numbers = answer.split()[1:]
        for n, (value, point) in enumerate(zip(values, points)):
            re_text, im_text = numbers[2 * n], numbers[2 * n + 1]
            if value is None or re_text == "nan":
                skipped += 1
                continue
            ours = complex(float(re_text), float(im_text))
            if max(abs(ours), abs(value)) > OVERFLOW:
                skipped += 1
                continue
            if abs(ours - value) <= TOLERANCE * max(abs(ours), abs(value), 1.0):
                compared += 1
            elif ill_conditioned(expr, symbols, point, value, rng):
                ill += 1
            else:
                failures.append(f"{text!r} at {point}: engine {ours}, SymPy {value} "
                                f"(SymPy reads {expr})")
    total_points = len(corpus) * args.points
    elapsed = time.time() - start
    print(f"parser_oracle: {len(corpus)} expressions (seed {args.seed}), {compared} values "
          f"compared at {args.points} points each, {skipped} points skipped (overflow or "
          f"undefined) and {ill} ill-conditioned ({100.0 * (skipped + ill) / total_points:.2f}%"
          f" in all), {undefined} expressions undefined on both sides, "
          f"{len(failures)} failures; {elapsed:.1f} s ({engine_time:.1f} s to the engine's "
          f"answers)")
    for failure in failures[:20]:
        print("  FAIL " + failure)
    if failures or skipped + ill > 0.01 * total_points or compared < 0.95 * total_points:
        sys.exit(1)


if __name__ == "__main__":
    main()
