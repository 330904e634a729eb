package app.vigie.alert;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A signed webhook: POST of the notice's JSON with
 * {@code Vigie-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>}, the alert's
 * {@code Idempotency-Key} and its phase. A 2xx answer is a delivery; anything else, or no answer in time, is retried.
 */
public final class Webhook {
    public static final String SIGNATURE = "Vigie-Signature";
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).build();

    /** The signature header's value of {@code body} at {@code at}. */
    public static String signature(String secret, Instant at, byte[] body) {
        long t = at.getEpochSecond();
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((t + ".").getBytes(StandardCharsets.US_ASCII));
            return "t=" + t + ",v1=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** Sends; returns null when delivered, else what went wrong (kept as the delivery's last error). */
    public String send(String url, String secret, String idempotencyKey, String phase, byte[] body, Instant now) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .header(SIGNATURE, signature(secret, now, body))
                    .header("Idempotency-Key", idempotencyKey)
                    .header("Vigie-Alert-Phase", phase)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 == 2) {
                return null;
            }
            String text = r.body() == null ? "" : r.body();
            return "HTTP " + r.statusCode() + (text.isBlank() ? "" : ": " + text.substring(0, Math.min(200,
                    text.length())));
        } catch (java.io.IOException | IllegalArgumentException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
