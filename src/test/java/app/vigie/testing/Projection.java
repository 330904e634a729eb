package app.vigie.testing;

import java.util.Iterator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Keeps of an answer only the fields an expected document names, so that added API fields do not matter. */
public final class Projection {
    private Projection() {
    }

    public static JsonNode onto(JsonNode actual, JsonNode expected) {
        if (actual == null || expected == null) {
            return actual;
        }
        if (expected.isObject() && actual.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (Iterator<String> it = expected.fieldNames(); it.hasNext();) {
                String name = it.next();
                if (actual.has(name)) {
                    out.set(name, onto(actual.get(name), expected.get(name)));
                }
            }
            return out;
        }
        if (expected.isArray() && actual.isArray() && expected.size() > 0) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            for (int i = 0; i < actual.size(); i++) {
                out.add(onto(actual.get(i), expected.get(Math.min(i, expected.size() - 1))));
            }
            return out;
        }
        return actual;
    }
}
