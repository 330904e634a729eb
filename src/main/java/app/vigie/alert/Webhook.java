package app.vigie.alert;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;

import app.vigie.platform.Digests;
import app.vigie.platform.Traces;

/**
 * A signed webhook: POST of the notice's JSON with
 * {@code Vigie-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>}, the alert's
 * {@code Idempotency-Key} and its phase. A 2xx answer is a delivery; anything else, or no answer in time, is retried.
 *
 * <p>A receiver cannot hold a sender: the target is checked and the connection pinned to the checked address
 * ({@link WebhookTargets}); one deadline covers the whole attempt (connection, TLS, request, answer); a 2xx is a
 * delivery as soon as its status line arrives and the rest of its body is not read; of any other answer at most
 * {@value #KEPT_BODY} bytes are read, and what is kept for staff to read is {@link #sanitize sanitised}.
 */
public final class Webhook implements AutoCloseable {
    public static final String SIGNATURE = "Vigie-Signature";
    /** Bytes of an error answer read, at most. */
    static final int KEPT_BODY = 2048;
    /** Characters of an error answer kept for staff, at most. */
    static final int SHOWN = 200;

    private final Vertx vertx;
    private final HttpClient http;
    private final WebhookTargets targets;
    private final Duration deadline;

    public Webhook(Vertx vertx, WebhookTargets targets, Duration deadline) {
        this.vertx = vertx;
        this.targets = targets;
        this.deadline = deadline;
        this.http = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) Math.min(deadline.toMillis(), 5_000))
                .setKeepAlive(false).setForceSni(true).setVerifyHost(true).setMaxPoolSize(256)
                .setMaxInitialLineLength(4096).setMaxHeaderSize(16 * 1024));
    }

    /** The signature header's value of {@code body} at {@code at}. */
    public static String signature(String secret, Instant at, byte[] body) {
        return signature(List.of(secret), at, body);
    }

    /**
     * The signature header's value with one {@code v1} per secret (the current one first; after a rotation, the
     * previous one while its overlap lasts): a receiver accepts the body when any {@code v1} verifies with its secret.
     */
    public static String signature(List<String> secrets, Instant at, byte[] body) {
        long t = at.getEpochSecond();
        byte[] prefix = (t + ".").getBytes(StandardCharsets.US_ASCII);
        byte[] signed = Arrays.copyOf(prefix, prefix.length + body.length);  // t + "." + body
        System.arraycopy(body, 0, signed, prefix.length, body.length);
        StringBuilder header = new StringBuilder("t=").append(t);
        for (String secret : secrets) {
            header.append(",v1=").append(HexFormat.of().formatHex(Digests.hmacSha256(
                    secret.getBytes(StandardCharsets.UTF_8), signed)));
        }
        return header.toString();
    }

    /** Sends; returns null when delivered, else what went wrong (kept as the delivery's last error). */
    public String send(String url, List<String> secrets, String idempotencyKey, String phase, byte[] body,
            Instant now) {
        WebhookTargets.Checked target;
        try {
            target = targets.check(url);
        } catch (WebhookTargets.Refused e) {
            return "not sent: " + e.getMessage();
        }
        String path = target.uri().getRawPath() == null || target.uri().getRawPath().isEmpty() ? "/"
                : target.uri().getRawPath();
        if (target.uri().getRawQuery() != null) {
            path += "?" + target.uri().getRawQuery();
        }
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(target.host())
                .setPort(target.port()).setSsl(target.tls()).setURI(path)
                .setServer(SocketAddress.inetSocketAddress(target.port(), target.address().getHostAddress()))
                .putHeader("Content-Type", "application/json")
                .putHeader(SIGNATURE, signature(secrets, now, body))
                .putHeader("Idempotency-Key", idempotencyKey)
                .putHeader("Vigie-Alert-Phase", phase);
        String trace = Traces.currentParent();
        if (trace != null) {
            options.putHeader("traceparent", trace);  // the delivery's span: the customer's side may continue it
        }
        CompletableFuture<String> result = new CompletableFuture<>();
        long timer = vertx.setTimer(deadline.toMillis(),
                id -> result.complete("no complete answer within " + deadline.toMillis() + " ms"));
        http.request(options).onComplete(opened -> {
            if (opened.failed()) {
                result.complete(describe(opened.cause()));
                return;
            }
            HttpClientRequest request = opened.result();
            result.whenComplete((r, x) -> request.reset());  // whatever is left unread is dropped with the connection
            request.send(Buffer.buffer(body)).onComplete(answered -> {
                if (answered.failed()) {
                    result.complete(describe(answered.cause()));
                    return;
                }
                HttpClientResponse response = answered.result();
                int status = response.statusCode();
                if (status / 100 == 2) {
                    result.complete(null);
                    return;
                }
                Buffer kept = Buffer.buffer();
                response.handler(chunk -> {
                    kept.appendBuffer(chunk, 0, Math.min(chunk.length(), KEPT_BODY - kept.length()));
                    if (kept.length() >= KEPT_BODY) {
                        result.complete(answer(status, kept));
                    }
                });
                response.endHandler(v -> result.complete(answer(status, kept)));
                response.exceptionHandler(e -> result.complete(answer(status, kept)));
            });
        });
        try {
            return result.get(deadline.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return "no complete answer within " + deadline.toMillis() + " ms";
        } catch (ExecutionException e) {
            return describe(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } finally {
            vertx.cancelTimer(timer);
            result.complete("abandoned");
        }
    }

    private static String answer(int status, Buffer kept) {
        String text = sanitize(new String(kept.getBytes(), StandardCharsets.UTF_8));
        return "HTTP " + status + (text.isEmpty() ? "" : ": " + text);
    }

    private static String describe(Throwable t) {
        String m = t.getMessage() == null ? "" : ": " + sanitize(t.getMessage());
        return t.getClass().getSimpleName() + m;
    }

    /**
     * What a receiver answered, as staff may read it: no control or formatting character (no line breaks, no
     * bidirectional overrides), spaces collapsed, at most {@value #SHOWN} characters. Pages escape it as well.
     */
    static String sanitize(String text) {
        String flat = text.replaceAll("[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]+", " ").replaceAll("\\s+", " ").strip();
        if (flat.codePointCount(0, flat.length()) <= SHOWN) {
            return flat;
        }
        return flat.substring(0, flat.offsetByCodePoints(0, SHOWN)) + "…";
    }

    @Override
    public void close() {
        http.close();
    }
}
