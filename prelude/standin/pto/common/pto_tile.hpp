// ptoverify stub: the declarations live in ptoverify_prelude.h
