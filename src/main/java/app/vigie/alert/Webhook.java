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

    /**
     * What a receiver answered: its HTTP status (null when none came: {@code error} says why), the start of its body
     * as staff may read it, and how long the whole attempt took.
     */
    public record Answer(Integer status, String text, String error, long millis) {
        public boolean delivered() {
            return status != null && status / 100 == 2;
        }
    }

    /** Sends; returns null when delivered, else what went wrong (kept as the delivery's last error). */
    public String send(String url, List<String> secrets, String idempotencyKey, String phase, byte[] body,
            Instant now) {
        Answer a = exchange(url, secrets, idempotencyKey, phase, body, now, false);
        if (a.delivered()) {
            return null;
        }
        return a.status() == null ? a.error() : "HTTP " + a.status() + (a.text().isEmpty() ? "" : ": " + a.text());
    }

    /**
     * Sends and answers what the receiver said, its body read for a 2xx as well ({@code readSuccess}): a test alert
     * shows the DPO the receiver's whole answer, as payment providers' webhook pages do.
     */
    public Answer exchange(String url, List<String> secrets, String idempotencyKey, String phase, byte[] body,
            Instant now, boolean readSuccess) {
        long started = System.nanoTime();
        WebhookTargets.Checked target;
        try {
            target = targets.check(url);
        } catch (WebhookTargets.Refused e) {
            return new Answer(null, "", "not sent: " + e.getMessage(), 0);
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
        String late = "no complete answer within " + deadline.toMillis() + " ms";
        CompletableFuture<Answer> result = new CompletableFuture<>();
        long timer = vertx.setTimer(deadline.toMillis(), id -> result.complete(failed(late, started)));
        http.request(options).onComplete(opened -> {
            if (opened.failed()) {
                result.complete(failed(describe(opened.cause()), started));
                return;
            }
            HttpClientRequest request = opened.result();
            result.whenComplete((r, x) -> request.reset());  // whatever is left unread is dropped with the connection
            request.send(Buffer.buffer(body)).onComplete(answered -> {
                if (answered.failed()) {
                    result.complete(failed(describe(answered.cause()), started));
                    return;
                }
                HttpClientResponse response = answered.result();
                int status = response.statusCode();
                if (status / 100 == 2 && !readSuccess) {
                    result.complete(new Answer(status, "", null, elapsed(started)));
                    return;
                }
                Buffer kept = Buffer.buffer();
                response.handler(chunk -> {
                    kept.appendBuffer(chunk, 0, Math.min(chunk.length(), KEPT_BODY - kept.length()));
                    if (kept.length() >= KEPT_BODY) {
                        result.complete(answer(status, kept, started));
                    }
                });
                response.endHandler(v -> result.complete(answer(status, kept, started)));
                response.exceptionHandler(e -> result.complete(answer(status, kept, started)));
            });
        });
        try {
            return result.get(deadline.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return failed(late, started);
        } catch (ExecutionException e) {
            return failed(describe(e.getCause()), started);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed("interrupted", started);
        } finally {
            vertx.cancelTimer(timer);
            result.complete(failed("abandoned", started));
        }
    }

    private static long elapsed(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }

    private static Answer failed(String error, long started) {
        return new Answer(null, "", error, elapsed(started));
    }

    private static Answer answer(int status, Buffer kept, long started) {
        return new Answer(status, sanitize(new String(kept.getBytes(), StandardCharsets.UTF_8)), null,
                elapsed(started));
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
