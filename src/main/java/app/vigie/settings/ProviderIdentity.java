package app.vigie.settings;

import java.util.ArrayList;
import java.util.List;

import app.vigie.tenant.TenantValidator;

/**
 * Who the provider (the processor) is: legal name, postal address, its data protection officer, the contact for
 * security incidents, and its DPO's designation number at the CNIL (if any). Documents state the legal name and the
 * contact (not recorded: "to be completed"); the other fields are kept for the DPO's reference. A field not recorded
 * is null.
 */
public record ProviderIdentity(String legalName, String address, String dpoName, String dpoEmail, String contact,
        String registration) {
    static final int SHORT = 200;
    static final int ADDRESS = 500;

    /** Each field stripped, a blank one null. */
    public ProviderIdentity normalized() {
        return new ProviderIdentity(clean(legalName), clean(address), clean(dpoName), clean(dpoEmail), clean(contact),
                clean(registration));
    }

    /** Whether documents to an authority can be issued: the legal name and the contact are recorded. */
    public boolean identified() {
        return legalName != null && contact != null;
    }

    /** A field that cannot be saved, and why: {@code kind} required, too_long (at most {@code max}), not_email, control. */
    public record Problem(String field, String kind, int max) {
        /** In English, for the API's answer. */
        public String english() {
            return "'" + field + "' " + switch (kind) {
                case "required" -> field.equals("contact") ? "is required: an e-mail address or a telephone number "
                        + "for security incidents" : "is required";
                case "too_long" -> "has at most " + max + " characters";
                case "not_email" -> "is not an e-mail address";
                default -> field.equals("address") ? "holds a control character other than a line break"
                        : "holds a control character (a line break?)";
            };
        }
    }

    /** What is wrong with it, each problem naming its field (none: it can be saved). */
    public List<Problem> problems() {
        List<Problem> p = new ArrayList<>();
        if (legalName == null) {
            p.add(new Problem("legal_name", "required", 0));
        }
        if (contact == null) {
            p.add(new Problem("contact", "required", 0));
        }
        length(p, "legal_name", legalName, SHORT);
        length(p, "address", address, ADDRESS);
        length(p, "dpo_name", dpoName, SHORT);
        length(p, "dpo_email", dpoEmail, SHORT);
        length(p, "contact", contact, SHORT);
        length(p, "registration", registration, SHORT);
        if (dpoEmail != null && !TenantValidator.isEmail(dpoEmail)) {
            p.add(new Problem("dpo_email", "not_email", 0));
        }
        for (String[] f : new String[][] {{"legal_name", legalName}, {"dpo_name", dpoName}, {"dpo_email", dpoEmail},
            {"contact", contact}, {"registration", registration}, {"address", address}}) {
            boolean lines = f[0].equals("address");
            if (f[1] != null && f[1].codePoints().anyMatch(c -> Character.isISOControl(c) && !(lines && c == '\n'))) {
                p.add(new Problem(f[0], "control", 0));
            }
        }
        return p;
    }

    private static void length(List<Problem> p, String name, String value, int max) {
        if (value != null && value.codePointCount(0, value.length()) > max) {
            p.add(new Problem(name, "too_long", max));
        }
    }

    private static String clean(String s) {
        if (s == null) {
            return null;
        }
        String t = s.replace("\r\n", "\n").replace('\r', '\n').strip();
        return t.isEmpty() ? null : t;
    }
}
