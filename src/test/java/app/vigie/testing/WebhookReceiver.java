package app.vigie.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.sun.net.httpserver.HttpServer;

/**
 * A customer's webhook receiver, as the documentation tells one to write it: it checks the Vigie-Signature header
 * (HMAC-SHA256 of "t.body" with the tenant's secret, and a timestamp within 5 minutes) before accepting, and
 * answers 401 to a bad signature. It can be told to fail the next n deliveries with 503.
 */
public final class WebhookReceiver implements AutoCloseable {
    /**
     * A request received: its headers of interest (the W3C {@code traceparent} when the sender traces), its body, and
     * whether its signature verified.
     */
    public record Received(String idempotencyKey, String phase, String signature, String body, boolean verified,
            String traceparent) {
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger failNext = new AtomicInteger();
    private volatile String secret;
    private volatile CountDownLatch hold;
    private final CountDownLatch arrived = new CountDownLatch(1);

    /**
     * Keeps the next request waiting for its answer until {@code release} opens; {@link #awaitHeld} returns once it
     * arrived.
     */
    public void holdNext(CountDownLatch release) {
        this.hold = release;
    }

    public boolean awaitHeld(long seconds) throws InterruptedException {
        return arrived.await(seconds, TimeUnit.SECONDS);
    }

    public WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/hook", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String sig = exchange.getRequestHeaders().getFirst("Vigie-Signature");
            boolean ok = verify(secret, sig, body, System.currentTimeMillis() / 1000);
            received.add(new Received(exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                    exchange.getRequestHeaders().getFirst("Vigie-Alert-Phase"), sig,
                    new String(body, StandardCharsets.UTF_8), ok, exchange.getRequestHeaders().getFirst("traceparent")));
            CountDownLatch release = hold;
            if (release != null) {
                hold = null;
                arrived.countDown();
                try {
                    release.await(120, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int status = !ok ? 401 : failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? 503 : 204;
            try {
                exchange.sendResponseHeaders(status, -1);
            } catch (IOException gone) {
                // the sender is gone (killed while waiting for this answer)
            }
            exchange.close();
        });
        server.start();
    }

    /** The documented verification: t=...,v1=... ; HMAC-SHA256(secret, t + "." + body) ; |now - t| <= 300 s. */
    public static boolean verify(String secret, String header, byte[] body, long nowSeconds) {
        if (secret == null || header == null) {
            return false;
        }
        String t = null;
        List<String> v1s = new ArrayList<>();
        for (String part : header.split(",")) {
            String[] kv = part.split("=", 2);
            if (kv.length == 2 && kv[0].equals("t")) {
                t = kv[1];
            } else if (kv.length == 2 && kv[0].equals("v1")) {
                v1s.add(kv[1]);  // one per secret in use (two while a rotation's overlap lasts): any may verify
            }
        }
        if (t == null || v1s.isEmpty() || Math.abs(nowSeconds - Long.parseLong(t)) > 300) {
            return false;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((t + ".").getBytes(StandardCharsets.US_ASCII));
            byte[] expected = HexFormat.of().formatHex(mac.doFinal(body)).getBytes(StandardCharsets.US_ASCII);
            boolean any = false;
            for (String v1 : v1s) {
                any |= MessageDigest.isEqual(expected, v1.getBytes(StandardCharsets.US_ASCII));
            }
            return any;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    public void secret(String s) {
        this.secret = s;
    }

    public String secretValue() {
        return secret;
    }

    public void failNext(int n) {
        failNext.set(n);
    }

    public List<Received> received() {
        return received;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
