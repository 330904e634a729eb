package app.vigie.tenant;

import java.net.URI;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Checks a tenant entry field by field; every problem is named, none is silently fixed. */
public final class TenantValidator {
    private static final Pattern ID = Pattern.compile("[^\\p{Cntrl}]{1,256}");
    /** The name the registers give the provider's own (Register.list): no tenant takes it. */
    static final String RESERVED = "provider";
    private static final Pattern COUNTRY = Pattern.compile("[A-Z]{2}");
    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");
    private static final Pattern CODE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,49}");
    private static final Set<String> CHANNELS = Set.of("webhook", "email", "kafka");
    private static final Duration MAX_DELAY = Duration.ofDays(30);

    private TenantValidator() {
    }

    /**
     * An e-mail address, as the directory and the controller's statements take one: one {@code @}, a local part
     * of 1 to 64 characters, a domain of 1 to 253 with a dot inside it, no space or control character (so no line
     * break can reach a mail header). One pass over the characters, whatever the input (no backtracking pattern).
     */
    public static boolean isEmail(String s) {
        if (s == null || s.length() > 320) {
            return false;
        }
        int at = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '@') {
                if (at >= 0) {
                    return false;
                }
                at = i;
            } else if (c <= ' ' || c == 0x7f || Character.isWhitespace(c) || Character.isISOControl(c)) {
                return false;
            }
        }
        if (at < 1 || at > 64 || s.length() - at - 1 < 3 || s.length() - at - 1 > 253) {
            return false;
        }
        int dot = s.lastIndexOf('.');
        return dot > at + 1 && dot < s.length() - 1;
    }

    /** The problems of the entry; empty when it is valid. */
    public static List<String> problems(Tenant t) {
        List<String> p = new ArrayList<>();
        if (t.id() == null || !ID.matcher(t.id()).matches()) {
            p.add("'id' must be the tenant name of the logs: 1 to 256 characters, no control character");
        } else if (RESERVED.equals(t.id())) {
            p.add("'id' cannot be '" + RESERVED + "': the name of the provider's own register of breaches");
        } else if (spaceAround(t.id())) {
            p.add("'id' cannot begin or end with a space, got '" + t.id() + "': it would read as another tenant's"
                    + " id ('acme ' is not 'acme'); give the tenant name of the logs exactly, without spaces around");
        } else if (t.id().equals(".") || t.id().equals("..")) {
            p.add("'id' cannot be '" + t.id() + "': it names no file (a tenant's documents are filed under its id)");
        }
        if (t.legalName() == null || t.legalName().isBlank() || t.legalName().length() > 300) {
            p.add("'legal_name' is required (at most 300 characters)");
        } else if (CONTROL.matcher(t.legalName()).find()) {
            p.add("'legal_name' has no control character (no line break)");
        }
        if (t.country() == null || !COUNTRY.matcher(t.country()).matches()) {
            p.add("'country' must be an ISO 3166-1 alpha-2 code such as FR, got " + quoted(t.country()));
        }
        if (t.companyId() != null && t.companyId().length() > 100) {
            p.add("'company_id' has at most 100 characters");
        }
        if (t.companyId() != null && CONTROL.matcher(t.companyId()).find()
                || t.dpo() != null && (t.dpo().name() != null && CONTROL.matcher(t.dpo().name()).find()
                        || t.dpo().phone() != null && CONTROL.matcher(t.dpo().phone()).find())) {
            p.add("'company_id', 'dpo.name' and 'dpo.phone' have no control character (no line break)");
        }
        if (t.dpo() != null && t.dpo().email() != null && !isEmail(t.dpo().email())) {
            p.add("'dpo.email' is not an e-mail address: " + quoted(t.dpo().email()));
        }
        if (t.alertChannels() != null) {
            for (int i = 0; i < t.alertChannels().size(); i++) {
                channel(p, i, t.alertChannels().get(i));
            }
        }
        if (t.alertDelay() != null) {
            try {
                Duration d = Duration.parse(t.alertDelay());
                if (d.isNegative() || d.compareTo(MAX_DELAY) > 0) {
                    p.add("'alert_delay' must be between PT0S and P30D, got " + t.alertDelay());
                }
            } catch (DateTimeParseException e) {
                p.add("'alert_delay' must be an ISO-8601 duration such as PT24H, got " + quoted(t.alertDelay()));
            }
        }
        codes(p, "jurisdictions", t.jurisdictions());
        codes(p, "sectors", t.sectors());
        for (String[] f : new String[][] {{"main_establishment", t.mainEstablishment()},
                {"eu_representative", t.euRepresentative()}}) {
            if (f[1] != null && !COUNTRY.matcher(f[1]).matches()) {
                p.add("'" + f[0] + "' must be an ISO 3166-1 alpha-2 code such as IE, got " + quoted(f[1]));
            }
        }
        if (t.mainEstablishment() != null && t.euRepresentative() != null) {
            p.add("give 'main_establishment' or 'eu_representative', not both: a representative (GDPR Art. 27) is "
                    + "designated by a controller without an establishment in the Union");
        }
        return p;
    }

    /** Whether {@code id} begins or ends with white space of any kind (a no-break space too). */
    private static boolean spaceAround(String id) {
        return blank(id.codePointAt(0)) || blank(id.codePointBefore(id.length()));
    }

    private static boolean blank(int c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c);
    }

    private static void channel(List<String> p, int i, Tenant.AlertChannel c) {
        String where = "'alert_channels[" + i + "]'";
        if (c == null || c.type() == null || !CHANNELS.contains(c.type())) {
            p.add(where + " type must be webhook, email or kafka");
            return;
        }
        String target = c.target();
        if (target == null || target.isBlank()) {
            p.add(where + " needs a target");
            return;
        }
        switch (c.type()) {
            case "webhook" -> {
                try {
                    URI u = URI.create(target);
                    if (!"https".equals(u.getScheme()) && !"http".equals(u.getScheme()) || u.getHost() == null) {
                        p.add(where + " target must be an http(s) URL, got " + quoted(target));
                    }
                } catch (IllegalArgumentException e) {
                    p.add(where + " target must be an http(s) URL, got " + quoted(target));
                }
            }
            case "email" -> {
                if (!isEmail(target)) {
                    p.add(where + " target is not an e-mail address: " + quoted(target));
                }
            }
            default -> {
                if (target.length() > 200) {
                    p.add(where + " target has at most 200 characters");
                }
            }
        }
    }

    private static void codes(List<String> p, String name, List<String> values) {
        if (values == null) {
            return;
        }
        for (String v : values) {
            if (v == null || !CODE.matcher(v).matches()) {
                p.add("'" + name + "' entries are codes of 1 to 50 letters, digits, _ . -, got " + quoted(v));
            }
        }
    }

    private static String quoted(String s) {
        return s == null ? "nothing" : "'" + s + "'";
    }
}
