package app.vigie.register;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The register's hash chain, plain Java: an entry's hash is SHA-256 over the previous entry's hash, a newline and the
 * entry's exact text; the first entry's previous hash is {@link #GENESIS}.
 */
public final class RegisterChain {
    public static final String GENESIS = "0".repeat(64);

    private RegisterChain() {
    }

    public static String hash(String previous, String body) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(previous.getBytes(StandardCharsets.US_ASCII));
            d.update((byte) '\n');
            d.update(body.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A stored entry as the check sees it. */
    public record Link(long id, String body, String prevHash, String hash) {
    }

    /** The outcome of a check: valid, or the first broken entry and why. */
    public record Verdict(boolean valid, long entries, String head, Long firstBroken, String reason) {
    }

    /** Checks links in order, stopping at the first broken one. */
    public static final class Checker {
        private String previous = GENESIS;
        private long count;
        private Verdict broken;

        /** Takes the next link; false once the chain is broken (the verdict says where). */
        public boolean accept(Link l) {
            if (broken != null) {
                return false;
            }
            count++;
            if (!l.prevHash().equals(previous)) {
                broken = new Verdict(false, count, null, l.id(), "its previous hash is not the hash of the entry "
                        + "before it: an entry was removed, inserted or reordered");
                return false;
            }
            String expected = hash(previous, l.body());
            if (!expected.equals(l.hash())) {
                broken = new Verdict(false, count, null, l.id(), "its text does not give its hash: it was changed "
                        + "after it was written");
                return false;
            }
            previous = l.hash();
            return true;
        }

        public Verdict verdict() {
            return broken != null ? broken : new Verdict(true, count, previous, null, null);
        }
    }
}
