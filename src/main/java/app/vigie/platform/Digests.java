package app.vigie.platform;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** SHA-256 and HMAC-SHA256, the two digests Vigie uses, in one place. Plain Java. */
public final class Digests {
    private Digests() {
    }

    public static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /** Lowercase hex SHA-256 of the bytes. */
    public static String sha256Hex(byte[] bytes) {
        return HexFormat.of().formatHex(sha256(bytes));
    }

    /** Lowercase hex SHA-256 of the text's UTF-8 bytes. */
    public static String sha256Hex(String text) {
        return sha256Hex(text.getBytes(StandardCharsets.UTF_8));
    }

    public static byte[] hmacSha256(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /**
     * A value only the holder of {@code key} can make, for one {@code purpose} (a key made for one purpose proves
     * nothing for another): base64url HMAC-SHA256 of {@code message} under {@code purpose + ":" + key}.
     */
    public static String keyed(String key, String purpose, String message) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(hmacSha256(
                (purpose + ":" + key).getBytes(StandardCharsets.UTF_8), message.getBytes(StandardCharsets.UTF_8)));
    }
}
