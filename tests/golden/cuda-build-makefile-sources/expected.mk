# Sources named through variables, a source compiled and linked with objects in one command
# (written for this test).
HIPCC = nvcc
SOURCES = main.cpp
SRCS = $(SOURCES)
OBJS = helper.o

app: $(OBJS)
	$(HIPCC) -x cu -O3 $(SRCS) -o $@

app2: main.cpp helper.o
	$(HIPCC) -x cu -c -O3 $< -o $@.ferry.o && $(HIPCC) -O3 -o $@ $@.ferry.o $(OBJS)

helper.o: helper.cpp
	$(HIPCC) -x cu -O3 -c $< -o $@
