package app.vigie.auditlog.record;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * An extension of the page audit log that a boot's {@code CONFIG} may declare (spec 1.3, amendment 1): a record that
 * uses one its boot did not declare is impossible; a boot that declares one this reader does not know is not judged.
 */
public enum Extension {
    /** Version 1.1: {@code XFER_SEND}, {@code XFER_DONE}, the {@code sent} and {@code transfer} fields. */
    XFER_SEND("xfer-send"),
    /** Version 1.2: {@code restart} on {@code ALLOC} and {@code SHARE}. */
    RESTART("restart");

    private final String wire;

    Extension(String wire) {
        this.wire = wire;
    }

    /** Its name in the log. */
    public String wire() {
        return wire;
    }

    /** The extension of that name in the log, or null when this reader does not know it. */
    public static Extension of(String wire) {
        for (Extension e : values()) {
            if (e.wire.equals(wire)) {
                return e;
            }
        }
        return null;
    }

    /** The names this reader knows, for messages: "restart, xfer-send". */
    public static String known() {
        return Arrays.stream(values()).map(Extension::wire).sorted()
                .collect(Collectors.joining(", "));
    }
}
