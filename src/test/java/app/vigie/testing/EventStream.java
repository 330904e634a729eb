package app.vigie.testing;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The dashboard's server-sent events ({@code GET /events}) read by a signed-in user: the names of the events. */
public final class EventStream implements AutoCloseable {
    private final HttpResponse<Stream<String>> response;
    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();

    private EventStream(HttpResponse<Stream<String>> response) {
        this.response = response;
        Thread reader = new Thread(() -> response.body().filter(l -> l.startsWith("event:"))
                .forEach(l -> received.add(l.substring(6).strip())), "event-stream-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Signs in at {@code base} with the form and opens the stream. */
    public static EventStream open(String base, String user, String password) throws IOException,
            InterruptedException {
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        HttpResponse<Void> signIn = http.send(HttpRequest.newBuilder(URI.create(base + "/j_security_check"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("j_username=" + URLEncoder.encode(user,
                        StandardCharsets.UTF_8) + "&j_password=" + URLEncoder.encode(password,
                        StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.discarding());
        List<String> cookies = signIn.headers().allValues("Set-Cookie");
        if (signIn.statusCode() != 302 || cookies.isEmpty()) {
            throw new IllegalStateException("sign-in at " + base + " answered " + signIn.statusCode());
        }
        return open(base, cookies.stream().map(c -> c.substring(0, c.indexOf(';') < 0 ? c.length()
                : c.indexOf(';'))).collect(Collectors.joining("; ")));
    }

    /** Opens the stream with the session's cookies ({@code name=value; ...}). */
    public static EventStream open(String base, String cookieHeader) throws IOException, InterruptedException {
        HttpResponse<Stream<String>> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(base + "/events")).header("Accept", "text/event-stream").header("Cookie", cookieHeader)
                .build(), HttpResponse.BodyHandlers.ofLines());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("/events answered " + r.statusCode());
        }
        return new EventStream(r);
    }

    /** Forgets what came so far, once what was under way has arrived ({@code settle} ms). */
    public void settle(long ms) throws InterruptedException {
        Thread.sleep(ms);
        received.clear();
    }

    /** The next event other than a keep-alive ping, within {@code seconds}; null when none came. */
    public String next(int seconds) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < until) {
            String e = received.poll(100, TimeUnit.MILLISECONDS);
            if (e != null && !e.equals("ping")) {
                return e;
            }
        }
        return null;
    }

    @Override
    public void close() {
        response.body().close();
    }
}
