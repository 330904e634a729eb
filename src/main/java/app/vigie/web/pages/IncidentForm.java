package app.vigie.web.pages;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What an incident page's form posted, kept to show it again when the action is refused (name, value...). */
record IncidentForm(String name, List<String> values) {
    String value(String field) {
        for (int i = 0; i < values.size(); i += 2) {
            if (values.get(i).equals(field)) {
                return values.get(i + 1);
            }
        }
        return "";
    }

    /** The values by field, for the newer forms of the page ({@link IncidentPage#typed(String)}). */
    Map<String, String> map() {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < values.size(); i += 2) {
            out.put(values.get(i), values.get(i + 1));
        }
        return out;
    }
}
