package app.vigie.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A webhook receiver that does not play fair, on a raw socket: it reads the request's headers, then answers
 * {@code status} with a body of {@code bodyBytes} bytes written {@code chunk} bytes at a time with {@code pause} ms
 * between chunks (a trickle: 1 byte every 500 ms; a flood: 100 MB as fast as the socket takes it), or never answers
 * ({@code status} 0). It counts connections, the bytes it managed to write, and the requests' Host headers.
 */
public final class HostileReceiver implements AutoCloseable {
    private final ServerSocket server;
    private final int status;
    private final long bodyBytes;
    private final int chunk;
    private final long pause;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong written = new AtomicLong();
    private final ConcurrentLinkedQueue<String> hosts = new ConcurrentLinkedQueue<>();

    public HostileReceiver(int status, long bodyBytes, int chunk, long pauseMillis) throws IOException {
        this.status = status;
        this.bodyBytes = bodyBytes;
        this.chunk = chunk;
        this.pause = pauseMillis;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "hostile-receiver-" + server.getLocalPort());
        accept.setDaemon(true);
        accept.start();
    }

    /** 200 and a body of one byte every 500 ms, for 10 minutes. */
    public static HostileReceiver trickle() throws IOException {
        return new HostileReceiver(200, 1200, 1, 500);
    }

    /** {@code status} and a body of 100 MB, as fast as it goes. */
    public static HostileReceiver flood(int status) throws IOException {
        return new HostileReceiver(status, 100L * 1024 * 1024, 64 * 1024, 0);
    }

    /** Takes the request, never answers. */
    public static HostileReceiver silent() throws IOException {
        return new HostileReceiver(0, 0, 1, 0);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                connections.incrementAndGet();
                Thread t = new Thread(() -> serve(s), "hostile-receiver-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        open.incrementAndGet();
        try (s) {
            InputStream in = s.getInputStream();
            StringBuilder head = new StringBuilder();
            int b;
            while ((b = in.read()) >= 0) {
                head.append((char) b);
                if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                    break;
                }
            }
            for (String line : head.toString().split("\r\n")) {
                if (line.regionMatches(true, 0, "Host:", 0, 5)) {
                    hosts.add(line.substring(5).strip());
                }
            }
            if (status == 0) {
                Thread.sleep(600_000);
                return;
            }
            OutputStream out = s.getOutputStream();
            out.write(("HTTP/1.1 " + status + " Whatever\r\nContent-Type: text/plain\r\nContent-Length: " + bodyBytes
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] block = new byte[chunk];
            Arrays.fill(block, (byte) 'x');
            long left = bodyBytes;
            while (left > 0) {
                int n = (int) Math.min(block.length, left);
                out.write(block, 0, n);
                out.flush();
                written.addAndGet(n);
                left -= n;
                if (pause > 0) {
                    Thread.sleep(pause);
                }
            }
        } catch (IOException | InterruptedException gone) {
            // the sender hung up: what we wrote so far is counted
        } finally {
            open.decrementAndGet();
        }
    }

    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/hook";
    }

    public int port() {
        return server.getLocalPort();
    }

    public int connections() {
        return connections.get();
    }

    /** Connections still being served (a sender stuck on this receiver keeps one open). */
    public int open() {
        return open.get();
    }

    public long written() {
        return written.get();
    }

    public List<String> hosts() {
        return List.copyOf(hosts);
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
