package app.vigie.runtime.kv;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Page fingerprints: HMAC-SHA-256 under a deployment key, chained over the pages of a request (page i's fingerprint
 * covers page i-1's and the tokens of page i), truncated to 128 bits. Equal fingerprints mean equal tokens behind
 * an equal prefix; the log never carries tokens, and without the key nobody can test a guess of them. Not
 * thread-safe: one per node.
 */
public final class Fingerprints {
    private static final HexFormat HEX = HexFormat.of();
    private final Mac mac;
    private final ByteBuffer buf;

    public Fingerprints(byte[] key, int pageSize) {
        try {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
        buf = ByteBuffer.allocate(16 + 4 * pageSize);
    }

    /** The fingerprint of a page holding {@code tokens[from, from + count)}, after the page whose is {@code previous}. */
    public byte[] next(byte[] previous, int[] tokens, int from, int count) {
        buf.clear();
        buf.put(previous == null ? new byte[16] : previous);
        for (int i = from; i < from + count; i++) {
            buf.putInt(tokens[i]);
        }
        mac.update(buf.array(), 0, buf.position());
        byte[] full = mac.doFinal();
        return java.util.Arrays.copyOf(full, 16);
    }

    public static String hex(byte[] fp) {
        return HEX.formatHex(fp);
    }
}
