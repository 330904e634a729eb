package app.vigie.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.zip.GZIPInputStream;

import com.sun.net.httpserver.HttpServer;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

/**
 * A real OTLP/HTTP trace receiver ({@code POST /v1/traces}, protobuf, gzip or not), as a collector is: it decodes
 * every span the service exports and keeps it with its trace, parent and attributes.
 */
public final class OtlpReceiver implements AutoCloseable {
    /** A span received: ids in hex, its name, kind and attributes (values as text). */
    public record Received(String traceId, String spanId, String parentSpanId, String name, String kind,
            Map<String, String> attributes, String service) {
    }

    private final HttpServer server;
    private final List<Received> spans = new CopyOnWriteArrayList<>();

    public OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/v1/traces", exchange -> {
            InputStream in = exchange.getRequestBody();
            if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
                in = new GZIPInputStream(in);
            }
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(in.readAllBytes());
            for (ResourceSpans rs : request.getResourceSpansList()) {
                String service = rs.getResource().getAttributesList().stream()
                        .filter(a -> a.getKey().equals("service.name")).map(a -> text(a)).findFirst().orElse(null);
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    for (Span s : ss.getSpansList()) {
                        Map<String, String> attributes = new LinkedHashMap<>();
                        s.getAttributesList().forEach(a -> attributes.put(a.getKey(), text(a)));
                        spans.add(new Received(hex(s.getTraceId().toByteArray()), hex(s.getSpanId().toByteArray()),
                                s.getParentSpanId().isEmpty() ? null : hex(s.getParentSpanId().toByteArray()),
                                s.getName(), s.getKind().name(), attributes, service));
                    }
                }
            }
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            byte[] ok = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.sendResponseHeaders(200, ok.length == 0 ? -1 : ok.length);
            if (ok.length > 0) {
                exchange.getResponseBody().write(ok);
            }
            exchange.close();
        });
        server.start();
    }

    private static String text(KeyValue a) {
        var v = a.getValue();
        return switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case INT_VALUE -> Long.toString(v.getIntValue());
            case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
            case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
            default -> v.toString();
        };
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    /** The endpoint to give the exporter ({@code http://127.0.0.1:PORT}). */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public List<Received> spans() {
        return new ArrayList<>(spans);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
