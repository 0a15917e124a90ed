/* Humanoid maps of rigs (sinew/retarget.h): the built-in joint-name
   tables, the automatic guess from normalised names and the hierarchy,
   and the user's bone map on top. Retargeting with them is retarget.c's;
   docs/retarget.md explains the rules. */
#include "sinew/retarget.h"

#include <stdlib.h>
#include <string.h>
#include "../base/base_internal.h"
#include "../model/model_internal.h"

/* ---- names ----------------------------------------------------------------- */

static bool sw__claimed(const sw_humanoid_map* map, size_t node) {
    if (!map) return false;
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; ++b)
        if (map->node[b] == (int32_t)node) return true;
    return false;
}

/* The best node for `name`: lowest level, then a skin joint, then the first;
   nodes already in `exclude` are skipped. */
static int32_t sw__find_node(const sw_model* model, const char* name, const sw_humanoid_map* exclude) {
    int32_t best = -1;
    int best_rank = 1 << 30;
    for (size_t i = 0; i < model->node_count; ++i) {
        int level = sw__node_name_level(model->nodes[i].name, name);
        if (level == 3 || level * 2 >= best_rank || sw__claimed(exclude, i)) continue;
        int rank = level * 2 + (sw__model_is_skin_joint(model, i) ? 0 : 1);
        if (rank < best_rank) best_rank = rank, best = (int32_t)i;
    }
    return best;
}

/* ---- name tables -------------------------------------------------------------

   Each row names one bone (the left one, or a centre bone) with candidate
   node names, comma-separated, tried in order; '#' stands for the side's
   text and makes the row count for both sides. Rows run in order and a node
   is taken once, so a row listed earlier claims first (UE5's five spine
   joints: upperChest takes spine_05 before chest looks at spine_03). */

typedef struct sw__name_row {
    sw_humanoid_bone bone;
    const char* names;
} sw__name_row;

typedef struct sw__name_table {
    sw_bone_naming naming;
    const char* side[2]; /* left, right */
    const sw__name_row* rows;
    size_t row_count;
} sw__name_table;

#define B(x) SW_HUMANOID_##x
static const sw__name_row sw__sinew_rows[] = {
    {B(HIPS), "pelvis"},
    {B(SPINE), "spine"},
    {B(CHEST), "chest"},
    {B(NECK), "neck"},
    {B(HEAD), "head"},
    {B(LEFT_SHOULDER), "shoulder_#"},
    {B(LEFT_UPPER_ARM), "upper_arm_#"},
    {B(LEFT_LOWER_ARM), "forearm_#"},
    {B(LEFT_HAND), "hand_#"},
    {B(LEFT_UPPER_LEG), "thigh_#"},
    {B(LEFT_LOWER_LEG), "shin_#"},
    {B(LEFT_FOOT), "foot_#"},
    {B(LEFT_TOES), "toes_#"},
};

/* Mixamo's names, which are HumanIK's; some HumanIK rigs put a Pelvis
   joint under Hips that carries the hips' motion. */
static const sw__name_row sw__mixamo_rows[] = {
    {B(HIPS), "Pelvis,Hips"},
    {B(SPINE), "Spine"},
    {B(UPPER_CHEST), "Spine3,Spine2"},
    {B(CHEST), "Spine1"},
    {B(NECK), "Neck"},
    {B(HEAD), "Head"},
    {B(LEFT_EYE), "#Eye"},
    {B(JAW), "Jaw"},
    {B(LEFT_SHOULDER), "#Shoulder"},
    {B(LEFT_UPPER_ARM), "#Arm"},
    {B(LEFT_LOWER_ARM), "#ForeArm"},
    {B(LEFT_HAND), "#Hand"},
    {B(LEFT_THUMB_METACARPAL), "#HandThumb1"},
    {B(LEFT_THUMB_PROXIMAL), "#HandThumb2"},
    {B(LEFT_THUMB_DISTAL), "#HandThumb3"},
    {B(LEFT_INDEX_PROXIMAL), "#HandIndex1"},
    {B(LEFT_INDEX_INTERMEDIATE), "#HandIndex2"},
    {B(LEFT_INDEX_DISTAL), "#HandIndex3"},
    {B(LEFT_MIDDLE_PROXIMAL), "#HandMiddle1"},
    {B(LEFT_MIDDLE_INTERMEDIATE), "#HandMiddle2"},
    {B(LEFT_MIDDLE_DISTAL), "#HandMiddle3"},
    {B(LEFT_RING_PROXIMAL), "#HandRing1"},
    {B(LEFT_RING_INTERMEDIATE), "#HandRing2"},
    {B(LEFT_RING_DISTAL), "#HandRing3"},
    {B(LEFT_LITTLE_PROXIMAL), "#HandPinky1"},
    {B(LEFT_LITTLE_INTERMEDIATE), "#HandPinky2"},
    {B(LEFT_LITTLE_DISTAL), "#HandPinky3"},
    {B(LEFT_UPPER_LEG), "#UpLeg"},
    {B(LEFT_LOWER_LEG), "#Leg"},
    {B(LEFT_FOOT), "#Foot"},
    {B(LEFT_TOES), "#ToeBase"},
};

/* UE4 has spine_01..03, UE5 spine_01..05. */
static const sw__name_row sw__ue_rows[] = {
    {B(HIPS), "pelvis"},
    {B(SPINE), "spine_01"},
    {B(UPPER_CHEST), "spine_05,spine_03"},
    {B(CHEST), "spine_03,spine_02"},
    {B(NECK), "neck_01"},
    {B(HEAD), "head"},
    {B(LEFT_SHOULDER), "clavicle_#"},
    {B(LEFT_UPPER_ARM), "upperarm_#"},
    {B(LEFT_LOWER_ARM), "lowerarm_#"},
    {B(LEFT_HAND), "hand_#"},
    {B(LEFT_THUMB_METACARPAL), "thumb_01_#"},
    {B(LEFT_THUMB_PROXIMAL), "thumb_02_#"},
    {B(LEFT_THUMB_DISTAL), "thumb_03_#"},
    {B(LEFT_INDEX_PROXIMAL), "index_01_#"},
    {B(LEFT_INDEX_INTERMEDIATE), "index_02_#"},
    {B(LEFT_INDEX_DISTAL), "index_03_#"},
    {B(LEFT_MIDDLE_PROXIMAL), "middle_01_#"},
    {B(LEFT_MIDDLE_INTERMEDIATE), "middle_02_#"},
    {B(LEFT_MIDDLE_DISTAL), "middle_03_#"},
    {B(LEFT_RING_PROXIMAL), "ring_01_#"},
    {B(LEFT_RING_INTERMEDIATE), "ring_02_#"},
    {B(LEFT_RING_DISTAL), "ring_03_#"},
    {B(LEFT_LITTLE_PROXIMAL), "pinky_01_#"},
    {B(LEFT_LITTLE_INTERMEDIATE), "pinky_02_#"},
    {B(LEFT_LITTLE_DISTAL), "pinky_03_#"},
    {B(LEFT_UPPER_LEG), "thigh_#"},
    {B(LEFT_LOWER_LEG), "calf_#"},
    {B(LEFT_FOOT), "foot_#"},
    {B(LEFT_TOES), "ball_#"},
};

/* Rigify's spine chain: spine (hips), .001 to .003, then the neck
   (.004, .005) and the head (.006). */
static const sw__name_row sw__rigify_rows[] = {
    {B(HIPS), "DEF-spine"},
    {B(SPINE), "DEF-spine.001"},
    {B(CHEST), "DEF-spine.002"},
    {B(UPPER_CHEST), "DEF-spine.003"},
    {B(NECK), "DEF-spine.004"},
    {B(HEAD), "DEF-spine.006"},
    {B(JAW), "DEF-jaw"},
    {B(LEFT_SHOULDER), "DEF-shoulder.#"},
    {B(LEFT_UPPER_ARM), "DEF-upper_arm.#"},
    {B(LEFT_LOWER_ARM), "DEF-forearm.#"},
    {B(LEFT_HAND), "DEF-hand.#"},
    {B(LEFT_THUMB_METACARPAL), "DEF-thumb.01.#"},
    {B(LEFT_THUMB_PROXIMAL), "DEF-thumb.02.#"},
    {B(LEFT_THUMB_DISTAL), "DEF-thumb.03.#"},
    {B(LEFT_INDEX_PROXIMAL), "DEF-f_index.01.#"},
    {B(LEFT_INDEX_INTERMEDIATE), "DEF-f_index.02.#"},
    {B(LEFT_INDEX_DISTAL), "DEF-f_index.03.#"},
    {B(LEFT_MIDDLE_PROXIMAL), "DEF-f_middle.01.#"},
    {B(LEFT_MIDDLE_INTERMEDIATE), "DEF-f_middle.02.#"},
    {B(LEFT_MIDDLE_DISTAL), "DEF-f_middle.03.#"},
    {B(LEFT_RING_PROXIMAL), "DEF-f_ring.01.#"},
    {B(LEFT_RING_INTERMEDIATE), "DEF-f_ring.02.#"},
    {B(LEFT_RING_DISTAL), "DEF-f_ring.03.#"},
    {B(LEFT_LITTLE_PROXIMAL), "DEF-f_pinky.01.#"},
    {B(LEFT_LITTLE_INTERMEDIATE), "DEF-f_pinky.02.#"},
    {B(LEFT_LITTLE_DISTAL), "DEF-f_pinky.03.#"},
    {B(LEFT_UPPER_LEG), "DEF-thigh.#"},
    {B(LEFT_LOWER_LEG), "DEF-shin.#"},
    {B(LEFT_FOOT), "DEF-foot.#"},
    {B(LEFT_TOES), "DEF-toe.#"},
};

static const sw__name_row sw__vroid_rows[] = {
    {B(HIPS), "J_Bip_C_Hips"},
    {B(SPINE), "J_Bip_C_Spine"},
    {B(CHEST), "J_Bip_C_Chest"},
    {B(UPPER_CHEST), "J_Bip_C_UpperChest"},
    {B(NECK), "J_Bip_C_Neck"},
    {B(HEAD), "J_Bip_C_Head"},
    {B(LEFT_EYE), "J_Adj_#_FaceEye"},
    {B(LEFT_SHOULDER), "J_Bip_#_Shoulder"},
    {B(LEFT_UPPER_ARM), "J_Bip_#_UpperArm"},
    {B(LEFT_LOWER_ARM), "J_Bip_#_LowerArm"},
    {B(LEFT_HAND), "J_Bip_#_Hand"},
    {B(LEFT_THUMB_METACARPAL), "J_Bip_#_Thumb1"},
    {B(LEFT_THUMB_PROXIMAL), "J_Bip_#_Thumb2"},
    {B(LEFT_THUMB_DISTAL), "J_Bip_#_Thumb3"},
    {B(LEFT_INDEX_PROXIMAL), "J_Bip_#_Index1"},
    {B(LEFT_INDEX_INTERMEDIATE), "J_Bip_#_Index2"},
    {B(LEFT_INDEX_DISTAL), "J_Bip_#_Index3"},
    {B(LEFT_MIDDLE_PROXIMAL), "J_Bip_#_Middle1"},
    {B(LEFT_MIDDLE_INTERMEDIATE), "J_Bip_#_Middle2"},
    {B(LEFT_MIDDLE_DISTAL), "J_Bip_#_Middle3"},
    {B(LEFT_RING_PROXIMAL), "J_Bip_#_Ring1"},
    {B(LEFT_RING_INTERMEDIATE), "J_Bip_#_Ring2"},
    {B(LEFT_RING_DISTAL), "J_Bip_#_Ring3"},
    {B(LEFT_LITTLE_PROXIMAL), "J_Bip_#_Little1"},
    {B(LEFT_LITTLE_INTERMEDIATE), "J_Bip_#_Little2"},
    {B(LEFT_LITTLE_DISTAL), "J_Bip_#_Little3"},
    {B(LEFT_UPPER_LEG), "J_Bip_#_UpperLeg"},
    {B(LEFT_LOWER_LEG), "J_Bip_#_LowerLeg"},
    {B(LEFT_FOOT), "J_Bip_#_Foot"},
    {B(LEFT_TOES), "J_Bip_#_ToeBase"},
};
#undef B

#define SW__TABLE(n, l, r, rows) {n, {l, r}, rows, sizeof rows / sizeof rows[0]}
/* The VRM table has no rows: its names are the bones' own. */
static const sw__name_table sw__tables[] = {
    {SW_BONE_NAMING_VRM, {"", ""}, NULL, 0},
    SW__TABLE(SW_BONE_NAMING_SINEW, "l", "r", sw__sinew_rows),
    SW__TABLE(SW_BONE_NAMING_MIXAMO, "Left", "Right", sw__mixamo_rows),
    SW__TABLE(SW_BONE_NAMING_UE, "l", "r", sw__ue_rows),
    SW__TABLE(SW_BONE_NAMING_RIGIFY, "L", "R", sw__rigify_rows),
    SW__TABLE(SW_BONE_NAMING_VROID, "L", "R", sw__vroid_rows),
};
#undef SW__TABLE

const char* sw_bone_naming_name(sw_bone_naming naming) {
    switch (naming) {
    case SW_BONE_NAMING_VRM: return "VRM";
    case SW_BONE_NAMING_SINEW: return "sinew demo";
    case SW_BONE_NAMING_MIXAMO: return "Mixamo";
    case SW_BONE_NAMING_UE: return "Unreal mannequin";
    case SW_BONE_NAMING_RIGIFY: return "Rigify";
    case SW_BONE_NAMING_VROID: return "VRoid";
    default: return "none";
    }
}

/* The right-side twin of a left bone ("leftHand" → "rightHand"). */
static sw_humanoid_bone sw__mirror(sw_humanoid_bone bone) {
    const char* name = sw_humanoid_bone_name(bone);
    char buf[64];
    sw_humanoid_bone out = SW_HUMANOID_NONE;
    if (!name || strncmp(name, "left", 4) != 0 || strlen(name) + 2 >= sizeof buf) return SW_HUMANOID_NONE;
    memcpy(buf, "right", 5);
    strcpy(buf + 5, name + 4);
    return sw_humanoid_bone_from_name(buf, &out) ? out : SW_HUMANOID_NONE;
}

/* Maps one row's bone (one side) to the first candidate found. */
static void sw__apply_row(const sw_model* model, const char* names, const char* side, sw_humanoid_bone bone,
                          sw_humanoid_map* map) {
    if (bone == SW_HUMANOID_NONE || map->node[bone] >= 0) return;
    for (const char* p = names; *p;) {
        const char* end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char cand[96];
        size_t n = 0;
        for (size_t i = 0; i < len; ++i) {
            const char* piece = p[i] == '#' ? side : NULL;
            size_t plen = piece ? strlen(piece) : 1;
            if (n + plen >= sizeof cand) break;
            memcpy(cand + n, piece ? piece : &p[i], plen);
            n += plen;
        }
        cand[n] = 0;
        int32_t node = sw__find_node(model, cand, map);
        if (node >= 0) {
            map->node[bone] = node;
            return;
        }
        p = end ? end + 1 : p + len;
    }
}

static uint32_t sw__apply_table(const sw_model* model, const sw__name_table* table, sw_humanoid_map* map) {
    sw_humanoid_map_clear(map);
    if (!table->rows) {
        for (int b = 0; b < SW_HUMANOID_BONE_COUNT; ++b)
            sw__apply_row(model, sw_humanoid_bone_name((sw_humanoid_bone)b), "", (sw_humanoid_bone)b, map);
    } else {
        for (size_t r = 0; r < table->row_count; ++r) {
            const sw__name_row* row = &table->rows[r];
            sw__apply_row(model, row->names, table->side[0], row->bone, map);
            if (strchr(row->names, '#')) sw__apply_row(model, row->names, table->side[1], sw__mirror(row->bone), map);
        }
    }
    uint32_t mapped = 0;
    sw_humanoid_map_coverage(map, &mapped, NULL);
    return mapped;
}

/* The user's entries over the table's map, in order. */
static void sw__apply_user_map(const sw_model* model, const sw_bone_map* bone_map, sw_humanoid_map* map,
                               sw_humanoid_naming* naming) {
    for (size_t i = 0; i < bone_map->entry_count; ++i) {
        const sw_bone_map_entry* e = &bone_map->entries[i];
        if (!e->node) {
            map->node[e->bone] = -1;
            naming->user_bones++;
            continue;
        }
        int32_t node = sw__find_node(model, e->node, NULL);
        if (node < 0) {
            naming->user_missing++;
            continue;
        }
        /* A node takes one bone: the user's choice replaces the table's. */
        for (int b = 0; b < SW_HUMANOID_BONE_COUNT; ++b)
            if (map->node[b] == node) map->node[b] = -1;
        map->node[e->bone] = node;
        naming->user_bones++;
    }
}

sw_result sw_humanoid_map_from_names(const sw_model* model, const sw_bone_map* bone_map, sw_humanoid_map* out,
                                     sw_humanoid_naming* out_naming, sw_diag* diag) {
    if (!model || !out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "humanoid map: model and map needed");
    SW_ASSERT(!bone_map || bone_map->entries || bone_map->entry_count == 0);
    for (size_t i = 0; bone_map && i < bone_map->entry_count; ++i)
        if ((int)bone_map->entries[i].bone < 0 || (int)bone_map->entries[i].bone >= SW_HUMANOID_BONE_COUNT) {
            sw_humanoid_map_clear(out);
            if (out_naming) *out_naming = (sw_humanoid_naming){0};
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "bone map: entry %zu names no humanoid bone",
                               i);
        }
    sw_humanoid_naming naming = {0};
    sw_humanoid_map best;
    sw_humanoid_map_clear(&best);
    for (size_t t = 0; t < sizeof sw__tables / sizeof sw__tables[0]; ++t) {
        sw_humanoid_map map;
        uint32_t mapped = sw__apply_table(model, &sw__tables[t], &map);
        if (mapped > naming.table_bones) naming.table_bones = mapped, naming.table = sw__tables[t].naming, best = map;
    }
    if (bone_map) sw__apply_user_map(model, bone_map, &best, &naming);
    sw_humanoid_map_coverage(&best, &naming.mapped, NULL);
    *out = best;
    if (out_naming) *out_naming = naming;
    return SW_OK;
}

/* ---- automatic mapping (names and hierarchy) --------------------------------- */

const char* sw_humanoid_match_name(sw_humanoid_match how) {
    switch (how) {
    case SW_HUMANOID_MATCH_TABLE: return "table";
    case SW_HUMANOID_MATCH_NAME: return "name";
    case SW_HUMANOID_MATCH_SYNONYM: return "synonym";
    case SW_HUMANOID_MATCH_CHAIN: return "chain";
    case SW_HUMANOID_MATCH_LOOSE: return "loose";
    case SW_HUMANOID_MATCH_USER: return "bone map";
    default: return "none";
    }
}

static int sw__lower(int c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }
static bool sw__is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static bool sw__is_lower(int c) { return c >= 'a' && c <= 'z'; }
static bool sw__is_digit(int c) { return c >= '0' && c <= '9'; }
static bool sw__is_alnum(int c) { return sw__is_upper(c) || sw__is_lower(c) || sw__is_digit(c); }

/* Words that only say "this is a rig": dropped wherever they stand. */
static const char* const sw__noise_words[] = {"mixamorig", "armature", "def", "org", "bip", "bip01", "bip001",
                                              "j", "adj", "jnt", "joint", "bn", "bone", "c", "cc", "base",
                                              "sk", "rig", "skeleton", "deform", "character"};
/* Words that mark helpers, never humanoid bones. */
static const char* const sw__helper_words[] = {"end", "nub", "tip", "pole", "target", "ik", "ctrl", "ctl",
                                               "mch", "twist", "roll", "helper", "null", "socket", "ref"};

static bool sw__word_in(const char* w, size_t n, const char* const* list, size_t count) {
    for (size_t i = 0; i < count; ++i)
        if (strlen(list[i]) == n && memcmp(list[i], w, n) == 0) return true;
    return false;
}

/* Words split at separators, case changes and digits; noise words (and a
   number right after one) dropped; the first side word taken out; a helper
   word empties the key. */
size_t sw_bone_name_key(const char* name, char* key, size_t key_size, int* side) {
    int found_side = 0;
    size_t n = 0;
    bool helper = false, after_noise = false;
    if (key_size) key[0] = 0;
    if (side) *side = 0;
    if (!name) return 0;
    /* Everything up to the last ':' or '|' is a namespace. */
    for (const char* p = name; *p; ++p)
        if (*p == ':' || *p == '|') name = p + 1;
    const char* s = name;
    size_t len = strlen(s);
    size_t i = 0;
    while (i < len) {
        if (!sw__is_alnum((unsigned char)s[i])) {
            i++;
            continue;
        }
        size_t start = i++;
        while (i < len && sw__is_alnum((unsigned char)s[i])) {
            int a = (unsigned char)s[i - 1], b = (unsigned char)s[i];
            bool next_lower = i + 1 < len && sw__is_lower((unsigned char)s[i + 1]);
            if (sw__is_digit(a) != sw__is_digit(b)) break;                     /* Spine1, 01L */
            if (sw__is_lower(a) && sw__is_upper(b)) break;                     /* upperArm */
            if (sw__is_upper(a) && sw__is_upper(b) && next_lower) break;       /* LHand, J_BipLUpper */
            i++;
        }
        char word[32];
        size_t wn = i - start < sizeof word - 1 ? i - start : sizeof word - 1;
        for (size_t k = 0; k < wn; ++k) word[k] = (char)sw__lower((unsigned char)s[start + k]);
        word[wn] = 0;
        bool digits = sw__is_digit((unsigned char)word[0]);
        if (digits && after_noise) { /* Bip01's, Character1's number */
            after_noise = false;
            continue;
        }
        after_noise = false;
        if (sw__word_in(word, wn, sw__noise_words, sizeof sw__noise_words / sizeof *sw__noise_words)) {
            after_noise = true;
            continue;
        }
        if (sw__word_in(word, wn, sw__helper_words, sizeof sw__helper_words / sizeof *sw__helper_words)) {
            helper = true;
            continue;
        }
        if (!found_side && (!strcmp(word, "l") || !strcmp(word, "left"))) {
            found_side = 1;
            continue;
        }
        if (!found_side && (!strcmp(word, "r") || !strcmp(word, "right"))) {
            found_side = 2;
            continue;
        }
        /* Numbers lose their leading zeros ("spine_01", "DEF-spine.001"). */
        size_t from = 0;
        if (digits)
            while (from + 1 < wn && word[from] == '0') from++;
        for (size_t k = from; k < wn && n + 1 < key_size; ++k) key[n++] = word[k];
    }
    if (helper) n = 0;
    if (key_size) key[n < key_size ? n : key_size - 1] = 0;
    if (side) *side = helper ? 0 : found_side;
    return n;
}

/* Body parts a key can name; TORSO is any bone of the spine chain and LEG
   the first or second leg joint (Mixamo's "Leg" is the knee). */
typedef enum sw__part {
    SW__PART_NONE,
    SW__PART_HIPS,
    SW__PART_TORSO,
    SW__PART_NECK,
    SW__PART_HEAD,
    SW__PART_EYE,
    SW__PART_JAW,
    SW__PART_SHOULDER,
    SW__PART_UPPER_ARM,
    SW__PART_LOWER_ARM,
    SW__PART_HAND,
    SW__PART_UPPER_LEG,
    SW__PART_LOWER_LEG,
    SW__PART_LEG,
    SW__PART_FOOT,
    SW__PART_TOES,
    SW__PART_THUMB,
    SW__PART_INDEX,
    SW__PART_MIDDLE,
    SW__PART_RING,
    SW__PART_LITTLE,
} sw__part;

/* Each part's words; the first is the humanoid's own (a NAME match), the
   rest synonyms. */
typedef struct sw__part_words {
    sw__part part;
    const char* words; /* comma-separated keys, without digits */
} sw__part_words;

static const sw__part_words sw__parts[] = {
    {SW__PART_HIPS, "hips,hip,pelvis"},
    {SW__PART_TORSO, "spine,chest,upperchest,abdomen,abdomen,torso,waist,ribcage,thorax,back,spinelower,spineupper"},
    {SW__PART_NECK, "neck"},
    {SW__PART_HEAD, "head"},
    {SW__PART_EYE, "eye,faceeye"},
    {SW__PART_JAW, "jaw"},
    {SW__PART_SHOULDER, "shoulder,clavicle,collar,collarbone"},
    {SW__PART_UPPER_ARM, "upperarm,arm,uparm,armupper,humerus"},
    {SW__PART_LOWER_ARM, "lowerarm,forearm,elbow,lowarm,armlower"},
    {SW__PART_HAND, "hand,palm,wrist"},
    {SW__PART_UPPER_LEG, "upperleg,thigh,upleg,legupper,femur"},
    {SW__PART_LOWER_LEG, "lowerleg,calf,shin,knee,lowleg,leglower"},
    {SW__PART_LEG, "leg"},
    {SW__PART_FOOT, "foot,ankle"},
    {SW__PART_TOES, "toes,toe,ball,toebase"},
};

/* Finger words, found anywhere in the key ("handthumb", "indexfinger"). */
static const struct {
    sw__part part;
    const char* word;
} sw__fingers[] = {
    {SW__PART_THUMB, "thumb"},   {SW__PART_INDEX, "index"},   {SW__PART_MIDDLE, "middle"},
    {SW__PART_LITTLE, "little"}, {SW__PART_LITTLE, "pinky"},  {SW__PART_LITTLE, "pinkie"},
    {SW__PART_RING, "ring"}, /* after pinky: HumanIK's "LeftHandRingPinky1" is the little finger */
};

/* The part a key names; *synonym (may be NULL) when not by the first word. */
static sw__part sw__part_of_key(const char* key, bool* synonym) {
    char letters[64];
    size_t n = 0;
    for (const char* p = key; *p && n + 1 < sizeof letters; ++p)
        if (!sw__is_digit((unsigned char)*p)) letters[n++] = *p;
    letters[n] = 0;
    if (synonym) *synonym = false;
    if (!n) return SW__PART_NONE;
    for (size_t f = 0; f < sizeof sw__fingers / sizeof *sw__fingers; ++f)
        if (strstr(letters, sw__fingers[f].word)) return sw__fingers[f].part;
    for (size_t i = 0; i < sizeof sw__parts / sizeof *sw__parts; ++i) {
        const char* w = sw__parts[i].words;
        for (bool first = true; *w; first = false) {
            const char* end = strchr(w, ',');
            size_t len = end ? (size_t)(end - w) : strlen(w);
            if (len == n && memcmp(w, letters, n) == 0) {
                if (synonym) *synonym = !first;
                return sw__parts[i].part;
            }
            w += len + (end ? 1 : 0);
        }
    }
    return SW__PART_NONE;
}

/* The left bone (or centre bone) a part starts with. */
static sw_humanoid_bone sw__part_bone(sw__part part) {
    switch (part) {
    case SW__PART_HIPS: return SW_HUMANOID_HIPS;
    case SW__PART_TORSO: return SW_HUMANOID_SPINE;
    case SW__PART_NECK: return SW_HUMANOID_NECK;
    case SW__PART_HEAD: return SW_HUMANOID_HEAD;
    case SW__PART_EYE: return SW_HUMANOID_LEFT_EYE;
    case SW__PART_JAW: return SW_HUMANOID_JAW;
    case SW__PART_SHOULDER: return SW_HUMANOID_LEFT_SHOULDER;
    case SW__PART_UPPER_ARM: return SW_HUMANOID_LEFT_UPPER_ARM;
    case SW__PART_LOWER_ARM: return SW_HUMANOID_LEFT_LOWER_ARM;
    case SW__PART_HAND: return SW_HUMANOID_LEFT_HAND;
    case SW__PART_UPPER_LEG: case SW__PART_LEG: return SW_HUMANOID_LEFT_UPPER_LEG;
    case SW__PART_LOWER_LEG: return SW_HUMANOID_LEFT_LOWER_LEG;
    case SW__PART_FOOT: return SW_HUMANOID_LEFT_FOOT;
    case SW__PART_TOES: return SW_HUMANOID_LEFT_TOES;
    case SW__PART_THUMB: return SW_HUMANOID_LEFT_THUMB_METACARPAL;
    case SW__PART_INDEX: return SW_HUMANOID_LEFT_INDEX_PROXIMAL;
    case SW__PART_MIDDLE: return SW_HUMANOID_LEFT_MIDDLE_PROXIMAL;
    case SW__PART_RING: return SW_HUMANOID_LEFT_RING_PROXIMAL;
    case SW__PART_LITTLE: return SW_HUMANOID_LEFT_LITTLE_PROXIMAL;
    default: return SW_HUMANOID_NONE;
    }
}

/* A left bone's twin on `side` (1 left, 2 right); centre bones as they are. */
static sw_humanoid_bone sw__sided(sw_humanoid_bone left, int side) {
    if (side != 2) return left;
    sw_humanoid_bone right = sw__mirror(left);
    return right == SW_HUMANOID_NONE ? left : right;
}

sw_humanoid_bone sw_bone_name_guess(const char* name) {
    char key[64];
    int side = 0;
    sw_bone_name_key(name, key, sizeof key, &side);
    sw__part part = sw__part_of_key(key, NULL);
    sw_humanoid_bone bone = sw__part_bone(part);
    if (bone == SW_HUMANOID_NONE) return bone;
    bool centre = part == SW__PART_HIPS || part == SW__PART_TORSO || part == SW__PART_NECK ||
                  part == SW__PART_HEAD || part == SW__PART_JAW;
    if (centre) return side ? SW_HUMANOID_NONE : bone;
    return side ? sw__sided(bone, side) : SW_HUMANOID_NONE;
}

/* Per node: what its name says and where it is. Pre-order numbering makes
   "is a below b" one comparison. */
typedef struct sw__guess_node {
    uint8_t part;      /* sw__part */
    uint8_t side;      /* 0 none, 1 left, 2 right */
    bool synonym;
    bool joint;        /* a skin joint */
    bool taken;        /* a bone has it */
    bool middle_below; /* a middle finger is its child (a palm that is the hand) */
    uint32_t depth, pre, size;
} sw__guess_node;

typedef struct sw__guess {
    const sw_model* model;
    sw__guess_node* n;
    sw_humanoid_map map;
    sw_humanoid_match how[SW_HUMANOID_BONE_COUNT];
} sw__guess;

static bool sw__below(const sw__guess* g, int32_t node, int32_t ancestor) {
    if (ancestor < 0) return true;
    const sw__guess_node* a = &g->n[ancestor];
    const sw__guess_node* b = &g->n[node];
    return b->pre > a->pre && b->pre < a->pre + a->size;
}

/* The best untaken node of `part` (or `part2`) on `side` below `anchor`:
   a skin joint first, then the shallowest, then a palm with a middle finger,
   then the first. -1 when none. */
static int32_t sw__pick(const sw__guess* g, sw__part part, sw__part part2, int side, int32_t anchor) {
    int32_t best = -1;
    for (size_t i = 0; i < g->model->node_count; ++i) {
        const sw__guess_node* c = &g->n[i];
        if ((c->part != part && c->part != part2) || c->side != side || c->taken || (int32_t)i == anchor ||
            !sw__below(g, (int32_t)i, anchor))
            continue;
        if (best >= 0) {
            const sw__guess_node* b = &g->n[best];
            if (b->joint != c->joint) {
                if (b->joint) continue;
            } else if (b->depth != c->depth) {
                if (b->depth < c->depth) continue;
            } else if (b->middle_below || !c->middle_below) {
                continue;
            }
        }
        best = (int32_t)i;
    }
    return best;
}

static void sw__take(sw__guess* g, sw_humanoid_bone bone, int32_t node, sw_humanoid_match how) {
    if (node < 0 || bone == SW_HUMANOID_NONE || g->map.node[bone] >= 0) return;
    g->map.node[bone] = node;
    g->n[node].taken = true;
    if (how == SW_HUMANOID_MATCH_NAME && g->n[node].synonym) how = SW_HUMANOID_MATCH_SYNONYM;
    g->how[bone] = how;
}

/* Picks below `anchor`, else anywhere (LOOSE) when `loose`. */
static void sw__pick_take(sw__guess* g, sw_humanoid_bone bone, sw__part part, int side, int32_t anchor, bool loose) {
    int32_t node = sw__pick(g, part, part, side, anchor);
    if (node >= 0) return sw__take(g, bone, node, SW_HUMANOID_MATCH_NAME);
    if (loose && anchor >= 0 && (node = sw__pick(g, part, part, side, -1)) >= 0)
        sw__take(g, bone, node, SW_HUMANOID_MATCH_LOOSE);
}

/* The deepest mapped bone among `bones` (in order), else -1. */
static int32_t sw__first_mapped(const sw__guess* g, const sw_humanoid_bone* bones, size_t count) {
    for (size_t i = 0; i < count; ++i)
        if (g->map.node[bones[i]] >= 0) return g->map.node[bones[i]];
    return -1;
}

/* The spine chain: the TORSO nodes between hips and the neck (or head),
   else the TORSO nodes below hips one below the other; assigned by order. */
static void sw__guess_spine(sw__guess* g) {
    const sw_model* m = g->model;
    int32_t hips = g->map.node[SW_HUMANOID_HIPS];
    int32_t top = g->map.node[SW_HUMANOID_NECK] >= 0 ? g->map.node[SW_HUMANOID_NECK] : g->map.node[SW_HUMANOID_HEAD];
    int32_t chain[16];
    size_t count = 0;
    bool named = false;
    if (top >= 0) {
        /* Walk up from the neck to the hips (or the root without hips): the
           named ones, else (between hips and neck) every node. The 16 nearest
           the neck at most. */
        int32_t path[16];
        size_t path_count = 0, torso = 0;
        for (int32_t k = m->nodes[top].parent; k >= 0 && k != hips; k = m->nodes[k].parent) {
            bool named_here = g->n[k].part == SW__PART_TORSO;
            if (path_count < 16 && (named_here || hips >= 0)) path[path_count++] = k;
            torso += named_here;
        }
        for (size_t i = path_count; i-- > 0;)
            if ((!torso || g->n[path[i]].part == SW__PART_TORSO) && !g->n[path[i]].taken) chain[count++] = path[i];
        named = torso > 0;
    } else {
        for (int32_t at = hips; count < 16;) {
            int32_t next = sw__pick(g, SW__PART_TORSO, SW__PART_TORSO, 0, at);
            if (next < 0) break;
            chain[count++] = at = next;
            g->n[next].taken = true; /* released below so sw__take can claim */
        }
        for (size_t i = 0; i < count; ++i) g->n[chain[i]].taken = false;
        named = true;
    }
    if (!count) return;
    int32_t spine = chain[0], chest = count > 1 ? chain[count >= 4 ? count / 2 : 1] : -1;
    int32_t upper = count > 2 ? chain[count - 1] : -1;
    sw_humanoid_match how = named && count == 1 ? SW_HUMANOID_MATCH_NAME : SW_HUMANOID_MATCH_CHAIN;
    sw__take(g, SW_HUMANOID_SPINE, spine, how);
    sw__take(g, SW_HUMANOID_CHEST, chest, how);
    sw__take(g, SW_HUMANOID_UPPER_CHEST, upper, how);
}

/* A bone left out between two mapped ones one node apart (the knee of
   upperLeg → ? → foot) is that node. */
static void sw__fill_gap(sw__guess* g, sw_humanoid_bone bone, sw_humanoid_bone above, sw_humanoid_bone below) {
    if (g->map.node[bone] >= 0 || g->map.node[above] < 0 || g->map.node[below] < 0) return;
    int32_t mid = g->model->nodes[g->map.node[below]].parent;
    if (mid >= 0 && !g->n[mid].taken && g->model->nodes[mid].parent == g->map.node[above])
        sw__take(g, bone, mid, SW_HUMANOID_MATCH_CHAIN);
}

/* The node of the nearest mapped humanoid ancestor of `bone` (-1: none,
   anywhere will do). */
static int32_t sw__anchor(const sw__guess* g, sw_humanoid_bone bone) {
    sw_humanoid_bone up = sw_humanoid_mapped_parent(&g->map, bone);
    return up == SW_HUMANOID_NONE ? -1 : g->map.node[up];
}

static void sw__guess_side(sw__guess* g, int side) {
    const int32_t hips = g->map.node[SW_HUMANOID_HIPS];
#define SIDED(x) sw__sided(SW_HUMANOID_LEFT_##x, side)
    /* Legs: "Leg" alone is the upper leg when nothing is named so, else the
       lower. Some rigs (Blender's, with a hip control bone) hang the thighs
       beside the hips rather than below them: then below the hips' parent. */
    sw_humanoid_bone ul = SIDED(UPPER_LEG), ll = SIDED(LOWER_LEG), ft = SIDED(FOOT);
    int32_t hips_up = hips >= 0 ? g->model->nodes[hips].parent : -1;
    int32_t node = sw__pick(g, SW__PART_UPPER_LEG, SW__PART_UPPER_LEG, side, hips);
    sw_humanoid_match how = SW_HUMANOID_MATCH_NAME;
    if (node < 0 && hips >= 0) node = sw__pick(g, SW__PART_UPPER_LEG, SW__PART_UPPER_LEG, side, hips_up);
    if (node < 0) how = SW_HUMANOID_MATCH_CHAIN, node = sw__pick(g, SW__PART_LEG, SW__PART_LEG, side, hips);
    if (node < 0 && hips >= 0) node = sw__pick(g, SW__PART_LEG, SW__PART_LEG, side, hips_up);
    sw__take(g, ul, node, how);
    node = sw__pick(g, SW__PART_LOWER_LEG, SW__PART_LOWER_LEG, side, sw__anchor(g, ll));
    if (node >= 0) sw__take(g, ll, node, SW_HUMANOID_MATCH_NAME);
    else sw__take(g, ll, sw__pick(g, SW__PART_LEG, SW__PART_LEG, side, sw__anchor(g, ll)), SW_HUMANOID_MATCH_CHAIN);
    sw__pick_take(g, ft, SW__PART_FOOT, side, sw__anchor(g, ft), true);
    sw__fill_gap(g, ll, ul, ft);
    sw__pick_take(g, SIDED(TOES), SW__PART_TOES, side, sw__anchor(g, SIDED(TOES)), false);

    /* Arms, each joint below the nearest mapped bone above it. */
    sw_humanoid_bone sh = SIDED(SHOULDER), ua = SIDED(UPPER_ARM), la = SIDED(LOWER_ARM), hd = SIDED(HAND);
    sw__pick_take(g, sh, SW__PART_SHOULDER, side, sw__anchor(g, sh), false);
    sw__pick_take(g, ua, SW__PART_UPPER_ARM, side, sw__anchor(g, ua), false);
    sw__pick_take(g, la, SW__PART_LOWER_ARM, side, sw__anchor(g, la), false);
    sw__pick_take(g, hd, SW__PART_HAND, side, sw__anchor(g, hd), true);
    sw__fill_gap(g, la, ua, hd);
    sw__fill_gap(g, ua, sh, la);

    /* Fingers: three segments in depth order below the hand (or forearm). */
    int32_t palm = g->map.node[hd] >= 0 ? g->map.node[hd] : g->map.node[la];
    static const sw__part fingers[] = {SW__PART_THUMB, SW__PART_INDEX, SW__PART_MIDDLE, SW__PART_RING,
                                       SW__PART_LITTLE};
    for (size_t f = 0; palm >= 0 && f < 5; ++f) {
        sw_humanoid_bone first = SIDED(THUMB_METACARPAL);
        first = (sw_humanoid_bone)(first + 3 * (int)f);
        int32_t at = palm;
        for (int s = 0; s < 3; ++s) {
            int32_t below = at;
            at = sw__pick(g, fingers[f], fingers[f], side, below);
            /* A finger on a palm bone beside the hand's: below the forearm. */
            if (at < 0 && s == 0 && g->map.node[la] >= 0)
                at = sw__pick(g, fingers[f], fingers[f], side, g->map.node[la]);
            if (at < 0) break;
            sw__take(g, (sw_humanoid_bone)(first + s), at, SW_HUMANOID_MATCH_CHAIN);
        }
    }
    sw__pick_take(g, SIDED(EYE), SW__PART_EYE, side, g->map.node[SW_HUMANOID_HEAD], false);
#undef SIDED
}

/* The names-and-hierarchy guess into g->map; false when out of memory. */
static bool sw__guess_run(sw__guess* g) {
    const sw_model* m = g->model;
    size_t n = m->node_count;
    sw_humanoid_map_clear(&g->map);
    memset(g->how, 0, sizeof g->how);
    if (!n) return true;
    g->n = sw__calloc(n, sizeof *g->n);
    uint32_t* next = sw__calloc(n, sizeof *next);
    if (!g->n || !next) {
        sw__free(next);
        return false;
    }
    for (size_t i = 0; i < n; ++i) {
        char key[64];
        int side = 0;
        sw_bone_name_key(m->nodes[i].name, key, sizeof key, &side);
        g->n[i].part = (uint8_t)sw__part_of_key(key, &g->n[i].synonym);
        g->n[i].side = (uint8_t)side;
        g->n[i].size = 1;
        int32_t p = m->nodes[i].parent;
        g->n[i].depth = p >= 0 ? g->n[p].depth + 1 : 0;
    }
    for (size_t s = 0; s < m->skin_count; ++s)
        for (size_t j = 0; j < m->skins[s].joint_count; ++j)
            if (m->skins[s].joints[j] < n) g->n[m->skins[s].joints[j]].joint = true;
    /* Subtree sizes (children come after parents), then pre-order numbers. */
    for (size_t i = n; i-- > 0;) {
        int32_t p = m->nodes[i].parent;
        if (p >= 0) g->n[p].size += g->n[i].size;
        if (p >= 0 && g->n[i].part == SW__PART_MIDDLE) g->n[p].middle_below = true;
    }
    uint32_t roots = 0;
    for (size_t i = 0; i < n; ++i) {
        int32_t p = m->nodes[i].parent;
        if (p < 0) {
            g->n[i].pre = roots;
            roots += g->n[i].size;
        } else {
            g->n[i].pre = next[p];
        }
        if (p >= 0) next[p] += g->n[i].size;
        next[i] = g->n[i].pre + 1;
    }
    sw__free(next);

    sw__pick_take(g, SW_HUMANOID_HIPS, SW__PART_HIPS, 0, -1, false);
    int32_t hips = g->map.node[SW_HUMANOID_HIPS];
    sw__pick_take(g, SW_HUMANOID_NECK, SW__PART_NECK, 0, hips, false);
    sw_humanoid_bone head_above[] = {SW_HUMANOID_NECK, SW_HUMANOID_HIPS};
    sw__pick_take(g, SW_HUMANOID_HEAD, SW__PART_HEAD, 0, sw__first_mapped(g, head_above, 2), false);
    sw__guess_spine(g);
    sw__pick_take(g, SW_HUMANOID_JAW, SW__PART_JAW, 0, g->map.node[SW_HUMANOID_HEAD], false);
    sw__guess_side(g, 1);
    sw__guess_side(g, 2);
    return true;
}

uint32_t sw_humanoid_map_body_missing(const sw_humanoid_map* map, sw_humanoid_bone* missing, size_t capacity) {
    static const sw_humanoid_bone body[] = {
        SW_HUMANOID_HIPS,           SW_HUMANOID_SPINE,          SW_HUMANOID_LEFT_UPPER_LEG, SW_HUMANOID_LEFT_LOWER_LEG,
        SW_HUMANOID_LEFT_FOOT,      SW_HUMANOID_RIGHT_UPPER_LEG, SW_HUMANOID_RIGHT_LOWER_LEG, SW_HUMANOID_RIGHT_FOOT,
    };
    uint32_t count = 0;
    for (size_t i = 0; i < sizeof body / sizeof *body; ++i)
        if (!map || map->node[body[i]] < 0) {
            if (missing && count < capacity) missing[count] = body[i];
            count++;
        }
    return count;
}

sw_result sw_humanoid_map_guess(const sw_model* model, const sw_bone_map* bone_map, sw_humanoid_map* out,
                                sw_humanoid_guess* report, sw_diag* diag) {
    if (report) *report = (sw_humanoid_guess){0};
    if (!model || !out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "humanoid map: model and map needed");
    /* The tables alone first (they check the bone map's entries). */
    sw_humanoid_naming naming;
    sw_humanoid_map table;
    sw_result r = sw_humanoid_map_from_names(model, NULL, &table, &naming, diag);
    if (r != SW_OK) return r;
    for (size_t i = 0; bone_map && i < bone_map->entry_count; ++i)
        if ((int)bone_map->entries[i].bone < 0 || (int)bone_map->entries[i].bone >= SW_HUMANOID_BONE_COUNT) {
            sw_humanoid_map_clear(out);
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "bone map: entry %zu names no humanoid bone",
                               i);
        }
    sw__guess g = {model, NULL, {{0}}, {0}};
    if (!sw__guess_run(&g)) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "humanoid map: out of memory");
    uint32_t guessed = 0;
    sw_humanoid_map_coverage(&g.map, &guessed, NULL);
    /* A table's exact names come first (they know rig quirks, like the
       HumanIK Pelvis under Hips that carries the motion); the guess fills
       the bones they leave out, with nodes no bone has. */
    sw_humanoid_map best = table;
    sw_humanoid_match how[SW_HUMANOID_BONE_COUNT];
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; ++b) {
        how[b] = best.node[b] >= 0 ? SW_HUMANOID_MATCH_TABLE : SW_HUMANOID_MATCH_NONE;
        int32_t node = g.map.node[b];
        if (best.node[b] >= 0 || node < 0 || sw__claimed(&best, (size_t)node)) continue;
        best.node[b] = node;
        how[b] = g.how[b];
    }
    sw__free(g.n);
    sw_humanoid_naming user = {0};
    if (bone_map) {
        sw_humanoid_map before = best;
        sw__apply_user_map(model, bone_map, &best, &user);
        for (int b = 0; b < SW_HUMANOID_BONE_COUNT; ++b)
            if (best.node[b] != before.node[b]) how[b] = best.node[b] >= 0 ? SW_HUMANOID_MATCH_USER : SW_HUMANOID_MATCH_NONE;
    }
    *out = best;
    if (report) {
        report->table = naming.table;
        report->table_bones = naming.table_bones;
        report->guessed_bones = guessed;
        report->user_bones = user.user_bones;
        report->user_missing = user.user_missing;
        sw_humanoid_map_coverage(&best, &report->mapped, &report->required_missing);
        memcpy(report->how, how, sizeof how);
    }
    return SW_OK;
}
