package app.vigie.runtime.kv;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Page fingerprints: SipHash-2-4 with a 128-bit output under a deployment key, chained over the pages of a request
 * (page i's fingerprint covers page i-1's and the tokens of page i). Equal fingerprints mean equal tokens behind an
 * equal prefix; the log never carries tokens, and without the key nobody can test a guess of them. SipHash rather
 * than HMAC-SHA-256: the same promise for this use (a keyed pseudo-random function), several times faster on a page.
 * Not thread-safe: one per node.
 */
public final class Fingerprints {
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] ZERO = new byte[16];
    private final SipHash128 hash;

    /** @param key any length; its SHA-256 gives the 128-bit SipHash key */
    public Fingerprints(byte[] key, int pageSize) {
        byte[] k;
        try {
            k = MessageDigest.getInstance("SHA-256").digest(key);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
        long k0 = 0;
        long k1 = 0;
        for (int i = 7; i >= 0; i--) {
            k0 = (k0 << 8) | (k[i] & 0xffL);
            k1 = (k1 << 8) | (k[8 + i] & 0xffL);
        }
        hash = new SipHash128(k0, k1);
    }

    /** The fingerprint of a page holding {@code tokens[from, from + count)}, after the page whose is {@code previous}. */
    public byte[] next(byte[] previous, int[] tokens, int from, int count) {
        return hash.hash(previous == null ? ZERO : previous, tokens, from, count);
    }

    public static String hex(byte[] fp) {
        return HEX.formatHex(fp);
    }
}
