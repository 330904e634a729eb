package app.vigie.security;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** The roles of api.md. {@code admin} holds every role. */
public enum Role {
    ADMIN, DPO, ANALYST, AUDITOR, CUSTOMER, INGEST;

    public static final String R_ADMIN = "admin";
    public static final String R_DPO = "dpo";
    public static final String R_ANALYST = "analyst";
    public static final String R_AUDITOR = "auditor";
    public static final String R_CUSTOMER = "customer";
    public static final String R_INGEST = "ingest";

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Role of(String id) {
        for (Role r : values()) {
            if (r.id().equals(id)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown role '" + id + "'; roles are "
                + Arrays.stream(values()).map(Role::id).collect(Collectors.joining(", ")));
    }

    /** The roles an account really holds: admin expands to every role. */
    public static Set<String> effective(Set<String> granted) {
        if (granted.contains(R_ADMIN)) {
            return Arrays.stream(values()).map(Role::id).collect(Collectors.toUnmodifiableSet());
        }
        return Set.copyOf(granted);
    }
}
