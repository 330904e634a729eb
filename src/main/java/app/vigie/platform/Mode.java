package app.vigie.platform;

import java.nio.file.Path;
import java.util.Locale;

/** The two ways to run the one artifact: embedded (no external service) and production. */
public enum Mode {
    EMBEDDED, PRODUCTION;

    /** From {@code VIGIE_MODE} (or {@code -Dvigie.mode}); embedded when unset. */
    public static Mode current() {
        String v = System.getProperty("vigie.mode", System.getenv("VIGIE_MODE"));
        if (v == null || v.isBlank()) {
            return EMBEDDED;
        }
        try {
            return valueOf(v.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("VIGIE_MODE must be 'embedded' or 'production', got '" + v + "'");
        }
    }

    /** {@code VIGIE_DATA_DIR}, default {@code ./data}. */
    public static Path dataDir() {
        String v = System.getProperty("vigie.data-dir", System.getenv("VIGIE_DATA_DIR"));
        return Path.of(v == null || v.isBlank() ? "data" : v).toAbsolutePath();
    }
}
