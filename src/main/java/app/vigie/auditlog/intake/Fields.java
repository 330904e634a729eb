package app.vigie.auditlog.intake;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Typed, bounded reads of the fields of one JSON record, each failure a reason a person understands. */
final class Fields {
    private final ObjectNode node;
    private String prefix = "";

    Fields(ObjectNode node) {
        this.node = node;
    }

    /** Names the record type in later reasons, e.g. {@code "ALLOC: field 'pages' is required"}. */
    void type(String type) {
        this.prefix = type + ": ";
    }

    InvalidRecordException invalid(String message) {
        return new InvalidRecordException(prefix + message);
    }

    JsonNode required(String name) throws InvalidRecordException {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            throw invalid("field '" + name + "' is required");
        }
        return v;
    }

    boolean has(String name) {
        JsonNode v = node.get(name);
        return v != null && !v.isNull();
    }

    long longValue(String name, long min, long max) throws InvalidRecordException {
        return integer(name, required(name), min, max);
    }

    int intValue(String name, int min) throws InvalidRecordException {
        return (int) integer(name, required(name), min, Integer.MAX_VALUE);
    }

    Integer optionalInt(String name, int min) throws InvalidRecordException {
        return has(name) ? intValue(name, min) : null;
    }

    long integer(String name, JsonNode v, long min, long max) throws InvalidRecordException {
        if (!v.isIntegralNumber()) {
            throw invalid("field '" + name + "' must be an integer, got " + describe(v));
        }
        if (!v.canConvertToLong() || v.longValue() > max) {
            throw invalid("field '" + name + "' must be at most " + max + ", got " + v.asText());
        }
        if (v.longValue() < min) {
            throw invalid("field '" + name + "' must be >= " + min + ", got " + v.longValue());
        }
        return v.longValue();
    }

    boolean bool(String name) throws InvalidRecordException {
        JsonNode v = required(name);
        if (!v.isBoolean()) {
            throw invalid("field '" + name + "' must be true or false, got " + describe(v));
        }
        return v.booleanValue();
    }

    Boolean optionalBool(String name) throws InvalidRecordException {
        return has(name) ? bool(name) : null;
    }

    String string(String name) throws InvalidRecordException {
        JsonNode v = required(name);
        if (!v.isTextual()) {
            throw invalid("field '" + name + "' must be a string, got " + describe(v));
        }
        return v.textValue();
    }

    /** A string of 1 to {@code max} characters (code points) without control characters. */
    String identifier(String name, int max) throws InvalidRecordException {
        String s = string(name);
        checkText(name, s, 1, max);
        return s;
    }

    String optionalText(String name, int max) throws InvalidRecordException {
        if (!has(name)) {
            return null;
        }
        String s = string(name);
        checkText(name, s, 0, max);
        return s;
    }

    private void checkText(String name, String s, int min, int max) throws InvalidRecordException {
        int length = s.codePointCount(0, s.length());
        if (length < min || length > max) {
            throw invalid("field '" + name + "' must have " + min + " to " + max + " characters, got " + length);
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw invalid("field '" + name + "' must not contain control characters (found U+"
                        + String.format("%04X", (int) c) + " at character " + (i + 1) + ")");
            }
            if (Character.isSurrogate(c)) {
                boolean paired = Character.isHighSurrogate(c) && i + 1 < s.length()
                        && Character.isLowSurrogate(s.charAt(i + 1));
                if (!paired) {
                    throw invalid("field '" + name + "' contains an unpaired surrogate \\u"
                            + String.format("%04x", (int) c));
                }
                i++;
            }
        }
    }

    <E extends Enum<E>> E enumValue(String name, Class<E> type) throws InvalidRecordException {
        JsonNode v = required(name);
        if (!v.isTextual()) {
            throw invalid("field '" + name + "' must be one of " + choices(type) + ", got " + describe(v));
        }
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(v.textValue())) {
                return e;
            }
        }
        throw invalid("field '" + name + "' must be one of " + choices(type) + ", got '" + abbreviate(v.textValue())
                + "'");
    }

    /**
     * An optional array of at most {@code maxItems} strings of 1 to {@code maxChars} characters without control
     * characters; empty when absent.
     */
    List<String> optionalStringArray(String name, int maxItems, int maxChars) throws InvalidRecordException {
        if (!has(name)) {
            return List.of();
        }
        JsonNode v = array(name);
        if (v.size() > maxItems) {
            throw invalid("field '" + name + "' must have at most " + maxItems + " items, got " + v.size());
        }
        List<String> items = new ArrayList<>(v.size());
        for (int i = 0; i < v.size(); i++) {
            JsonNode item = v.get(i);
            String at = name + "[" + i + "]";
            if (!item.isTextual()) {
                throw invalid("field '" + at + "' must be a string, got " + describe(item));
            }
            checkText(at, item.textValue(), 1, maxChars);
            items.add(item.textValue());
        }
        return items;
    }

    JsonNode array(String name) throws InvalidRecordException {
        JsonNode v = required(name);
        if (!v.isArray()) {
            throw invalid("field '" + name + "' must be an array, got " + describe(v));
        }
        return v;
    }

    static <E extends Enum<E>> String choices(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", "));
    }

    static String describe(JsonNode v) {
        JsonNodeType t = v.getNodeType();
        return switch (t) {
            case STRING -> "string '" + abbreviate(v.textValue()) + "'";
            case NUMBER -> "number " + v.asText();
            case BOOLEAN -> v.asText();
            case NULL -> "null";
            default -> t.name().toLowerCase(Locale.ROOT);
        };
    }

    static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
