package app.vigie.auditlog.intake;

import java.util.Locale;

/** Where a line came from. */
public enum Source {
    HTTP, KAFKA, FILE;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
