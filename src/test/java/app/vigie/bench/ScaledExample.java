package app.vigie.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The prefill/decode example (03) scaled to N records: copy k renames its streams and request ids with a
 * {@code xk/} prefix, so that every copy is a pair of pools of its own and leaks the same way.
 */
final class ScaledExample {
    private ScaledExample() {
    }

    static List<String> lines(long records) {
        List<String> base;
        try (InputStream in = ScaledExample.class.getResourceAsStream("/examples/03-pd-rejected-prompt.ndjson")) {
            base = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> out = new ArrayList<>((int) records + base.size());
        for (int k = 0; out.size() < records; k++) {
            String prefix = "x" + k + "/";
            for (String line : base) {
                out.add(line.replace("\"stream\": \"", "\"stream\": \"" + prefix)
                        .replace("\"request\": \"", "\"request\": \"" + prefix));
            }
        }
        return out;
    }
}
