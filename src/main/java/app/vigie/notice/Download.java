package app.vigie.notice;

import java.nio.charset.StandardCharsets;

/**
 * A document as its reader gets it: the page (HTML), its data (JSON), or its PDF/A-3u with the data inside, as a
 * download named {@code fileName}.
 */
public record Download(String mediaType, byte[] body, String fileName) {

    /** A name made safe for a downloaded file or an entry of a ZIP: letters, digits, '.', '_' and '-' only. */
    public static String safeName(String name) {
        return name.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** The document {@code r} in {@code format} (html, json or pdf); a PDF is named {@code file}.pdf. */
    public static Download of(DocumentRenderer renderer, DocumentRenderer.Rendered r, String format, String file) {
        String name = safeName(file);
        return switch (format) {
            case "html" -> new Download("text/html; charset=UTF-8", r.page().getBytes(StandardCharsets.UTF_8), null);
            case "json" -> new Download("application/json", r.json(), null);
            default -> new Download("application/pdf", renderer.pdf(r, name + ".json"), name + ".pdf");
        };
    }
}
