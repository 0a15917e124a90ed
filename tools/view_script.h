/* tools/view_script.h — the key sequences `sinew view --script` plays, one
   step per frame, for tests and for making pictures without a hand on the
   keyboard. Pure text parsing: no window or GL here.

   A script is steps separated by white space:

     D  ]  +  1 ...       one printable character: the key that types it
                          (letters in either case)
     space esc tab left right up down home end
     kp1 kp3 kp7          named keys (kpN: keypad N)
     shift+KEY ctrl+KEY   the key with a modifier held (shift+tab, ctrl+kp1)
     wait:N               N frames without input (N = 1..100000)
     move:X,Y             the cursor to window position X, Y (window
                          coordinates, origin at the top left)
     click:X,Y            a left click there
     drag:X0,Y0,X1,Y1     a left drag (orbit; on the timeline bar: scrub)
     mdrag:X0,Y0,X1,Y1    a middle drag (pan)
     scroll:DY            the wheel, DY notches (negative: towards you)
     size:WxH             resize the window to W × H (window coordinates)
     open:PATH            open PATH as if it were dropped on the window
     drop:PATH            drop PATH on the window (the window's drop
                          callback; it opens at the next frame)
     dump:PATH            write the per-vertex values of the last frame's
                          weights or retention view to PATH (text)

   PATH runs to the next white space, or is written in double quotes
   ("open:\"my model.glb\"" in a shell: open:"my model.glb"). */
#ifndef SINEW_TOOLS_VIEW_SCRIPT_H
#define SINEW_TOOLS_VIEW_SCRIPT_H

#include "tool_common.h"

#include <stddef.h>

/* Keys that are not characters. */
typedef enum view_key {
    VIEW_KEY_NONE = 0,
    VIEW_KEY_SPACE,
    VIEW_KEY_ESCAPE,
    VIEW_KEY_TAB,
    VIEW_KEY_LEFT,
    VIEW_KEY_RIGHT,
    VIEW_KEY_UP,
    VIEW_KEY_DOWN,
    VIEW_KEY_HOME,
    VIEW_KEY_END,
    VIEW_KEY_KP1,
    VIEW_KEY_KP3,
    VIEW_KEY_KP7,
} view_key;

enum { VIEW_MOD_SHIFT = 1, VIEW_MOD_CTRL = 2 };

typedef enum view_step_kind {
    VIEW_STEP_CHAR,   /* ch, mods */
    VIEW_STEP_KEY,    /* key, mods */
    VIEW_STEP_WAIT,   /* count */
    VIEW_STEP_MOVE,   /* at[0..1] */
    VIEW_STEP_CLICK,  /* at[0..1] */
    VIEW_STEP_DRAG,   /* at[0..3] */
    VIEW_STEP_MDRAG,  /* at[0..3] */
    VIEW_STEP_SCROLL, /* at[0] */
    VIEW_STEP_SIZE,   /* at[0] × at[1] */
    VIEW_STEP_OPEN,   /* path */
    VIEW_STEP_DROP,   /* path */
    VIEW_STEP_DUMP,   /* path */
} view_step_kind;

typedef struct view_step {
    view_step_kind kind;
    char ch;          /* VIEW_STEP_CHAR: the character (letters lower case) */
    view_key key;
    int mods;         /* VIEW_MOD_* */
    long count;
    double at[4];
    char* path;       /* owned */
} view_step;

typedef struct view_script {
    view_step* steps;
    size_t count;
} view_script;

/* Parses `text`. On failure `err` names the step (its position and text)
   and what is accepted; `out` is then empty. */
bool view_script_parse(const char* text, view_script* out, tool_error* err);
void view_script_free(view_script* script);

#endif
