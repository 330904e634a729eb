package app.vigie.runtime.kv;

/**
 * SipHash-2-4 with a 128-bit output (Aumasson and Bernstein): a keyed pseudo-random function, fast on short inputs.
 * Without the key nobody can compute it, hence test a guess of the tokens behind a fingerprint.
 */
final class SipHash128 {
    private long v0;
    private long v1;
    private long v2;
    private long v3;
    private final long k0;
    private final long k1;

    SipHash128(long k0, long k1) {
        this.k0 = k0;
        this.k1 = k1;
    }

    /** The hash of a byte string, little-endian: the reference definition, for tests against its vectors. */
    byte[] hash(byte[] m) {
        start();
        int words = m.length / 8;
        for (int w = 0; w < words; w++) {
            long x = 0;
            for (int i = 7; i >= 0; i--) {
                x = (x << 8) | (m[w * 8 + i] & 0xffL);
            }
            word(x);
        }
        long last = (long) m.length << 56;
        for (int i = m.length - 1; i >= words * 8; i--) {
            last |= (m[i] & 0xffL) << (8 * (i - words * 8));
        }
        return finish(last);
    }

    /**
     * The hash of {@code prefix} (16 bytes) followed by {@code tokens[from, from + count)} as 4-byte little-endian
     * integers: the same as {@link #hash(byte[])} of those bytes, without building them.
     */
    byte[] hash(byte[] prefix, int[] tokens, int from, int count) {
        start();
        word(le(prefix, 0));
        word(le(prefix, 8));
        int i = from;
        int end = from + count;
        for (; i + 1 < end; i += 2) {
            word((tokens[i] & 0xffffffffL) | ((long) tokens[i + 1] << 32));
        }
        long last = (long) (16 + 4 * count) << 56;
        if (i < end) {
            last |= tokens[i] & 0xffffffffL;
        }
        return finish(last);
    }

    private static long le(byte[] b, int at) {
        long x = 0;
        for (int i = 7; i >= 0; i--) {
            x = (x << 8) | (b[at + i] & 0xffL);
        }
        return x;
    }

    private void start() {
        v0 = k0 ^ 0x736f6d6570736575L;
        v1 = k1 ^ 0x646f72616e646f6dL ^ 0xee;
        v2 = k0 ^ 0x6c7967656e657261L;
        v3 = k1 ^ 0x7465646279746573L;
    }

    private void word(long m) {
        v3 ^= m;
        round();
        round();
        v0 ^= m;
    }

    private byte[] finish(long last) {
        word(last);
        v2 ^= 0xee;
        round();
        round();
        round();
        round();
        long a = v0 ^ v1 ^ v2 ^ v3;
        v1 ^= 0xdd;
        round();
        round();
        round();
        round();
        long b = v0 ^ v1 ^ v2 ^ v3;
        byte[] out = new byte[16];
        for (int i = 0; i < 8; i++) {
            out[i] = (byte) (a >>> (8 * i));
            out[8 + i] = (byte) (b >>> (8 * i));
        }
        return out;
    }

    private void round() {
        v0 += v1;
        v1 = Long.rotateLeft(v1, 13);
        v1 ^= v0;
        v0 = Long.rotateLeft(v0, 32);
        v2 += v3;
        v3 = Long.rotateLeft(v3, 16);
        v3 ^= v2;
        v0 += v3;
        v3 = Long.rotateLeft(v3, 21);
        v3 ^= v0;
        v2 += v1;
        v1 = Long.rotateLeft(v1, 17);
        v1 ^= v2;
        v2 = Long.rotateLeft(v2, 32);
    }
}
