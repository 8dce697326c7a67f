/* SPDX-License-Identifier: MIT */
/*
 * Evaluation with Python's number semantics, for the rare count sets where
 * they differ from plain doubles. The vendor oracles evaluate the formulas
 * in Python, where counts are ints: int + - * int is exact (arbitrary
 * precision), int / int is the correctly rounded quotient, int-float mixes
 * convert the int with correct rounding, and int-float comparisons are exact.
 * With 2^48-scale counts, "34 * (a + b)" already exceeds 2^53, and a
 * cancellation later in the formula turns the last bit into a visible
 * difference. Here every value carries a 128-bit integer when Python would
 * hold an int; beyond 2^127 (not reachable with 64-bit counts and the
 * vendor formulas' degree) it falls back to doubles.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "metrics/model-internal.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

#define TWO53 9007199254740992.0

static int bitlen(u128 x)
{
	int n = 0;
	uint64_t hi = (uint64_t)(x >> 64);
	if (hi) {
		n = 64;
		x = hi;
	}
	uint64_t lo = (uint64_t)x;
	while (lo) {
		n++;
		lo >>= 1;
	}
	return n;
}

/* 2^e for 0 <= e < 1024, exactly */
static double pow2(int e)
{
	double r = 1;
	while (e >= 63) {
		r *= 9223372036854775808.0;
		e -= 63;
	}
	return r * (double)((uint64_t)1 << e);
}

/* Rounds m * 2^e (+ a sticky fraction below m's last bit) to the nearest
 * double, ties to even: Python's int -> float and int / int rounding. */
static double round_u128(u128 m, int e, int sticky)
{
	int n = bitlen(m);
	if (n > 53) {
		int d = n - 53;
		u128 low = m & (((u128)1 << d) - 1), half = (u128)1 << (d - 1);
		m >>= d;
		e += d;
		if (low > half || (low == half && (sticky || (m & 1))))
			m++;
	}
	double r = (double)(uint64_t)m;
	return e >= 0 ? r * pow2(e) : r / pow2(-e);
}

static double to_double(i128 x)
{
	if (x >= -(i128)TWO53 && x <= (i128)TWO53)
		return (double)(int64_t)x;
	return x < 0 ? -round_u128((u128)-x, 0, 0) : round_u128((u128)x, 0, 0);
}

/* Correctly rounded a / b (b != 0). */
static double divide(i128 a, i128 b)
{
	if (a >= -(i128)TWO53 && a <= (i128)TWO53 && b >= -(i128)TWO53 && b <= (i128)TWO53)
		return (double)(int64_t)a / (double)(int64_t)b; /* exact operands: one rounding */
	int neg = (a < 0) != (b < 0);
	u128 ua = a < 0 ? (u128)-a : (u128)a, ub = b < 0 ? (u128)-b : (u128)b;
	if (ua == 0)
		return neg ? -0.0 : 0.0;
	u128 q = ua / ub, r = ua % ub;
	int e = 0;
	/* at least 55 quotient bits, so the rounding position and a guard bit
	 * are integer bits of q; the rest of the fraction is only sticky */
	while (bitlen(q) < 55) {
		r <<= 1;
		q <<= 1;
		if (r >= ub) {
			r -= ub;
			q |= 1;
		}
		e--;
	}
	double d = round_u128(q, e, r != 0);
	return neg ? -d : d;
}

/* Python's exact comparison of an int with a float: <0, 0, >0 */
static int cmp_int_float(i128 x, double f)
{
	if (x >= -(i128)TWO53 && x <= (i128)TWO53) {
		double d = (double)(int64_t)x;
		return d < f ? -1 : d > f;
	}
	if (f >= 1.7e38)
		return -1;
	if (f <= -1.7e38)
		return 1;
	double fl = floor(f);
	i128 fi = (i128)fl;
	if (x != fi)
		return x < fi ? -1 : 1;
	return fl < f ? -1 : 0;
}

struct xval {
	double d;    /* the value as a double (correctly rounded when an int) */
	i128 i;      /* the int, when is_int */
	int is_int;
};

static int cmp_x(const struct xval *p, const struct xval *q)
{
	if (p->is_int && q->is_int)
		return p->i < q->i ? -1 : p->i > q->i;
	if (p->is_int)
		return cmp_int_float(p->i, q->d);
	if (q->is_int)
		return -cmp_int_float(q->i, p->d);
	return p->d < q->d ? -1 : p->d > q->d;
}

static void set_int(struct xval *v, i128 i)
{
	v->is_int = 1;
	v->i = i;
	v->d = to_double(i);
}

static void set_float(struct xval *v, double d)
{
	v->is_int = 0;
	v->d = d;
}

/* An input value: an int when integral and exactly representable. */
static void set_input(struct xval *v, double d, int may_be_int)
{
	if (may_be_int && d == floor(d) && fabs(d) <= 9.2e18)
		set_int(v, (i128)d);
	else
		set_float(v, d);
}

static int cmp_result(uint8_t code, int c)
{
	switch (code) {
	case OP_LT: case OP_TLT: return c < 0;
	case OP_GT: case OP_TGT: return c > 0;
	case OP_LE: case OP_TLE: return c <= 0;
	case OP_GE: case OP_TGE: return c >= 0;
	case OP_EQ: case OP_TEQ: return c == 0;
	default: return c != 0;
	}
}

void bt_run_exact(const struct bt_model *m, const struct bt_counts *c, double *v)
{
	struct xval *x = malloc((m->n_ops + 1) * sizeof(*x));
	if (!x)
		return; /* keep the double results */
	for (uint32_t i = 0; i < m->n_ops; i++) {
		const struct bt_op *o = &m->ops[i];
		struct xval *r = &x[i];
		const struct xval *a = &x[o->a], *b = &x[o->b];
		i128 t;
		switch (o->code) {
		case OP_EVENT:
			set_input(r, c->events[o->a], 1);
			break;
		case OP_CONST:
			set_input(r, c->constants[o->a], o->type == T_INT);
			break;
		case OP_RL:
			set_float(r, c->retire_latency[o->a]);
			break;
		case OP_IMM:
			set_float(r, o->k);
			break;
		case OP_IMMI:
			set_input(r, o->k, 1);
			break;
		case OP_NEG:
			if (a->is_int && !__builtin_sub_overflow((i128)0, a->i, &t))
				set_int(r, t);
			else
				set_float(r, -a->d);
			break;
		case OP_ADD:
		case OP_SUB:
		case OP_MUL:
			if (a->is_int && b->is_int &&
			    !(o->code == OP_ADD   ? __builtin_add_overflow(a->i, b->i, &t)
			      : o->code == OP_SUB ? __builtin_sub_overflow(a->i, b->i, &t)
						  : __builtin_mul_overflow(a->i, b->i, &t))) {
				set_int(r, t);
			} else {
				double p = a->d, q = b->d;
				set_float(r, o->code == OP_ADD ? p + q : o->code == OP_SUB ? p - q : p * q);
			}
			break;
		case OP_DIV:
			if (b->is_int ? b->i == 0 : b->d == 0)
				set_float(r, NAN);
			else if (a->is_int && b->is_int)
				set_float(r, divide(a->i, b->i));
			else
				set_float(r, a->d / b->d);
			break;
		case OP_DRATIO:
			if (!b->is_int && isnan(b->d))
				set_float(r, NAN);
			else if (b->is_int ? b->i == 0 : b->d == 0)
				set_int(r, 0);
			else if (a->is_int && b->is_int)
				set_float(r, divide(a->i, b->i));
			else
				set_float(r, a->d / b->d);
			break;
		case OP_LT: case OP_GT: case OP_LE: case OP_GE: case OP_EQ: case OP_NE:
			if ((!a->is_int && isnan(a->d)) || (!b->is_int && isnan(b->d)))
				set_float(r, NAN);
			else
				set_int(r, cmp_result(o->code, cmp_x(a, b)));
			break;
		case OP_TLT: case OP_TGT: case OP_TLE: case OP_TGE: case OP_TEQ: case OP_TNE:
			if ((!a->is_int && isnan(a->d)) || (!b->is_int && isnan(b->d)))
				set_int(r, 0); /* an invalid comparison is false */
			else
				set_int(r, cmp_result(o->code, cmp_x(a, b)));
			break;
		case OP_NOT:
			if (!a->is_int && isnan(a->d))
				set_float(r, NAN);
			else
				set_int(r, a->is_int ? a->i == 0 : a->d == 0);
			break;
		case OP_AND:
		case OP_OR: {
			int nan = !a->is_int && isnan(a->d);
			int truth = a->is_int ? a->i != 0 : a->d != 0;
			*r = nan || (o->code == OP_AND ? !truth : truth) ? *a : *b;
			break;
		}
		case OP_IF: {
			if (!b->is_int && isnan(b->d)) {
				set_float(r, NAN);
				break;
			}
			int truth = b->is_int ? b->i != 0 : b->d != 0;
			*r = truth ? *a : x[o->c];
			break;
		}
		case OP_MIN:
		case OP_MAX:
			if ((!a->is_int && isnan(a->d)) || (!b->is_int && isnan(b->d)))
				set_float(r, NAN);
			else
				*r = cmp_x(b, a) == (o->code == OP_MIN ? -1 : 1) ? *b : *a;
			break;
		default:
			set_float(r, NAN);
			break;
		}
		v[i] = r->d;
	}
	free(x);
}
