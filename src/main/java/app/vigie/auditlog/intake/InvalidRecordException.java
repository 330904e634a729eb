package app.vigie.auditlog.intake;

/** A line that is not a valid page audit record; the message is the reason, written for a person. */
public class InvalidRecordException extends Exception {
    public InvalidRecordException(String reason) {
        super(printable(reason), null, false, false);
    }

    /** The reason with control characters written as {@code \\uXXXX}, so that it can be shown and stored as text. */
    static String printable(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = c < 0x20 || c == 0x7f || Character.isSurrogate(c)
                    && !(Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)))
                    && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1)));
            if (control && b == null) {
                b = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            if (b != null) {
                if (control) {
                    b.append(String.format("\\u%04x", (int) c));
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? s : b.toString();
    }
}
